/* A main for a fuzz harness without libFuzzer: runs LLVMFuzzerTestOneInput once on each file named
 * (a folder: on each file in it, one level), for valgrind and for replaying an input by hand.
 * Portable C plus <dirent.h>, which the fuzz build (Linux, clang) has.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    size_t cap = 4096, n = 0, got;
    uint8_t *buf = malloc(cap);
    while (buf != NULL && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *bigger = realloc(buf, cap * 2);
            if (bigger == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf == NULL) {
        fprintf(stderr, "%s: out of memory\n", path);
        return 1;
    }
    /* An exact-size copy, so that valgrind sees a read past the input's end. */
    uint8_t *exact = malloc(n ? n : 1);
    if (exact == NULL) {
        free(buf);
        return 1;
    }
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

static int run_path(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
        return run_file(path);
    }
    DIR *dir = opendir(path);
    if (dir == NULL) {
        perror(path);
        return 1;
    }
    int failed = 0, count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.') {
            continue;
        }
        size_t len = strlen(path) + strlen(entry->d_name) + 2;
        char *file = malloc(len);
        if (file == NULL) {
            failed = 1;
            break;
        }
        snprintf(file, len, "%s/%s", path, entry->d_name);
        if (stat(file, &st) == 0 && S_ISREG(st.st_mode)) {
            failed |= run_file(file);
            count++;
        }
        free(file);
    }
    closedir(dir);
    fprintf(stderr, "%s: %d inputs\n", path, count);
    return failed;
}

int main(int argc, char **argv) {
    int failed = 0;
    for (int i = 1; i < argc; i++) {
        failed |= run_path(argv[i]);
    }
    return failed;
}
