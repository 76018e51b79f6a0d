/* The HIP tier's one helper: every HIP call is checked, and a program reports each mismatch
 * with the host's value and exits non-zero (hip_check_done). */
#ifndef HIP_CHECK_H
#define HIP_CHECK_H

#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define HIP_CHECK(call)                                                                   \
   do {                                                                                   \
      hipError_t hip_check_e = (call);                                                    \
      if (hip_check_e != hipSuccess) {                                                    \
         fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                    \
                 hipGetErrorString(hip_check_e));                                         \
         exit(1);                                                                         \
      }                                                                                   \
   } while (0)

static int hip_check_failures;

/* Counts a failed expectation; prints only the first few of a kind (a wrong kernel usually
 * gets every element wrong). */
#define EXPECT(cond, ...)                                                                 \
   do {                                                                                   \
      if (!(cond)) {                                                                      \
         if (hip_check_failures++ < 20) {                                                 \
            fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                               \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fputc('\n', stderr);                                                          \
         }                                                                                \
      }                                                                                   \
   } while (0)

static inline int hip_check_done(const char *name)
{
   if (hip_check_failures) {
      fprintf(stderr, "%s: %d mismatches against the host\n", name, hip_check_failures);
      return 1;
   }
   printf("%s: ok\n", name);
   return 0;
}

#endif
