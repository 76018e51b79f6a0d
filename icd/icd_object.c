/*
 * icd/icd_object.c — the object header's life, the allocation wrapper with fault
 * injection, and the clGet*Info size-query protocol shared by every module.
 */
#include "icd.h"
#include "icd_priv.h"

#include <stdlib.h>
#include <string.h>

void
icd_object_init(struct icd_object *obj, icd_type type)
{
   obj->dispatch = &icd_dispatch.base;
   obj->type = (uint32_t)type;
   obj->check = ICD_CHECK_WORD ^ (uint32_t)type;
   atomic_init(&obj->refcount, 1);
   atomic_init(&obj->internal_refs, 1);
}

void
icd_object_finish(struct icd_object *obj)
{
   obj->check = 0;
   obj->type = 0;
}

/* ---- allocation ------------------------------------------------------------------ */

/* Allocations left before injected failures start; 0 = never fail. Set by tests only. */
static atomic_ulong alloc_fail_countdown;
static atomic_bool alloc_fail_armed;

void
icd_test_fail_alloc_after(unsigned long n)
{
   atomic_store(&alloc_fail_countdown, n);
   atomic_store(&alloc_fail_armed, n != 0);
}

static bool
alloc_should_fail(void)
{
   if (!atomic_load_explicit(&alloc_fail_armed, memory_order_relaxed))
      return false;
   unsigned long left = atomic_load(&alloc_fail_countdown);
   while (left > 1) {
      if (atomic_compare_exchange_weak(&alloc_fail_countdown, &left, left - 1))
         return false;
   }
   return true;
}

__attribute__((constructor)) static void
alloc_env_init(void)
{
   const char *env = getenv("HSACL_TEST_FAIL_ALLOC");
   if (env && *env)
      icd_test_fail_alloc_after(strtoul(env, NULL, 0));
}

void *
icd_calloc(size_t count, size_t size)
{
   return alloc_should_fail() ? NULL : calloc(count, size);
}

void *
icd_malloc(size_t size)
{
   return alloc_should_fail() ? NULL : malloc(size);
}

void *
icd_realloc(void *ptr, size_t size)
{
   return alloc_should_fail() ? NULL : realloc(ptr, size);
}

char *
icd_strdup(const char *s)
{
   size_t n = strlen(s) + 1;
   char *d = icd_malloc(n);
   if (d)
      memcpy(d, s, n);
   return d;
}

void
icd_free(void *ptr)
{
   free(ptr);
}

/* ---- clGet*Info ------------------------------------------------------------------- */

cl_int
icd_get_info(const void *value, size_t size, size_t param_value_size, void *param_value,
             size_t *param_value_size_ret)
{
   if (param_value) {
      if (param_value_size < size)
         return ICD_ERROR(CL_INVALID_VALUE,
                          "param_value_size %zu is smaller than the %zu bytes of the value",
                          param_value_size, size);
      if (size)
         memcpy(param_value, value, size);
   }
   if (param_value_size_ret)
      *param_value_size_ret = size;
   return CL_SUCCESS;
}
