/* nerve._speedups: the compiled engine, against CPython's stable ABI (3.10 and newer).
 *
 * Each source file of csrc/ adds its functions to the module through one method table, declared
 * here and listed once in module.c. The numpy engine is the reference: every function here gives
 * the same results, errors and messages as the Python code it stands in for.
 */
#ifndef NERVE_SPEEDUPS_H
#define NERVE_SPEEDUPS_H

#ifndef Py_LIMITED_API
#define Py_LIMITED_API 0x030A0000
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* The method tables of the source files; module.c adds each to the module. */
extern PyMethodDef nerve_core_methods[];
extern PyMethodDef nerve_conll_methods[];
extern PyMethodDef nerve_columns_methods[];
extern PyMethodDef nerve_brat_methods[];
extern PyMethodDef nerve_spans_methods[];
extern PyMethodDef nerve_muc_methods[];
extern PyMethodDef nerve_agree_methods[];

#endif
