/* The module object of nerve._speedups: multi-phase initialisation over each file's method table. */
#include "speedups.h"

/* The module's own functions: the ABI it was built against, for `nerve --version` and the tests. */
static PyObject *abi(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    return PyLong_FromLong(Py_LIMITED_API);
}

PyMethodDef nerve_core_methods[] = {
    {"abi", abi, METH_NOARGS, "The Py_LIMITED_API version this module was compiled against."},
    {NULL, NULL, 0, NULL},
};

/* Every method table, in one place: a new source file adds its table here. */
static PyMethodDef *const TABLES[] = {
    nerve_core_methods,
    nerve_conll_methods,
    nerve_columns_methods,
    nerve_brat_methods,
    nerve_spans_methods,
    nerve_muc_methods,
    nerve_agree_methods,
};

static int exec_module(PyObject *module) {
    for (size_t i = 0; i < sizeof TABLES / sizeof TABLES[0]; i++) {
        if (PyModule_AddFunctions(module, TABLES[i]) < 0) {
            return -1;
        }
    }
    return 0;
}

static PyModuleDef_Slot slots[] = {
    {Py_mod_exec, (void *)exec_module},
    {0, NULL},
};

static struct PyModuleDef definition = {
    PyModuleDef_HEAD_INIT,
    "nerve._speedups",
    "nerve's compiled engine (optional; the numpy engine gives the same answers).",
    0,
    NULL,
    slots,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__speedups(void) { return PyModuleDef_Init(&definition); }
