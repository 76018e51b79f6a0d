/*
 * fuzz/fuzz_common.h — what the fuzz targets share: the environment they set before the
 * driver or the software runtime first reads it.
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stdlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* Quiet logs (every rejected input would warn) and the build tree's software runtime;
 * the caller's environment wins. */
static inline void
fuzz_default_env(void)
{
   setenv("HSACL_LOG", "off", 0);
#ifdef HSACL_FUZZ_SIM_LIBRARY
   setenv("HSACL_SIM_LIBRARY", HSACL_FUZZ_SIM_LIBRARY, 0);
#endif
   setenv("HSACL_RUNTIME", "sim", 0);
   /* One interpreter thread: nothing here runs kernels, and fewer threads start faster. */
   setenv("HSACL_SIM_THREADS", "1", 0);
}

#endif /* FUZZ_COMMON_H */
