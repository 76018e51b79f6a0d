/*
 * memory/mem_staging.c — the staging allocator: pooled host memory the GPU can access,
 * which the transfer code copies through (pool allocation itself is runtime/rt_pool.c).
 *
 * Staging cache. Per device (up to STAGING_MAX_DEVICES), one free list per power-of-two
 * size class from 64 KiB to MEM_STAGING_MAX_CACHED, each a small fixed array, so the cache
 * itself never allocates. A freed block is kept when its class has room and the device's
 * cached bytes stay under STAGING_MAX_BYTES; otherwise it goes back to HSA. Everything is
 * under staging_lock; HSA is called outside it.
 */
#include "memory/mem_priv.h"
#include "runtime/rt.h"

#define STAGING_MIN_SHIFT 16u /* 64 KiB */
#define STAGING_MAX_SHIFT 26u /* 64 MiB == MEM_STAGING_MAX_CACHED */
#define STAGING_NUM_CLASSES (STAGING_MAX_SHIFT - STAGING_MIN_SHIFT + 1)
#define STAGING_KEEP 4u                  /* blocks kept per class */
#define STAGING_MAX_BYTES (128ull << 20) /* bytes kept per device */
#define STAGING_MAX_DEVICES 8u

_Static_assert((1ull << STAGING_MAX_SHIFT) == MEM_STAGING_MAX_CACHED, "class table");

struct staging_cache {
   struct _cl_device_id *dev;
   void *blocks[STAGING_NUM_CLASSES][STAGING_KEEP];
   unsigned count[STAGING_NUM_CLASSES];
   uint64_t bytes;
};

static pthread_mutex_t staging_lock = PTHREAD_MUTEX_INITIALIZER;
static struct staging_cache staging_caches[STAGING_MAX_DEVICES];
static unsigned staging_num_caches;

uint32_t
mem__context_agents(const struct _cl_context *ctx, hsa_agent_t *agents)
{
   uint32_t n = 0;
   for (cl_uint i = 0; i < ctx->num_devices && n < MEM_MAX_AGENTS; i++)
      agents[n++] = ctx->devices[i]->agent;
   return n;
}

/* Size class of `size`, or -1 when it is not cached. */
static int
size_class(size_t size)
{
   if (size > MEM_STAGING_MAX_CACHED)
      return -1;
   unsigned shift = STAGING_MIN_SHIFT;
   while ((1ull << shift) < size)
      shift++;
   return (int)(shift - STAGING_MIN_SHIFT);
}

static size_t
class_bytes(int cls)
{
   return (size_t)1 << (STAGING_MIN_SHIFT + (unsigned)cls);
}

/* The device's cache, created on first use; NULL when the table is full. Locked. */
static struct staging_cache *
cache_get_locked(struct _cl_device_id *dev)
{
   for (unsigned i = 0; i < staging_num_caches; i++) {
      if (staging_caches[i].dev == dev)
         return &staging_caches[i];
   }
   if (staging_num_caches == STAGING_MAX_DEVICES)
      return NULL;
   struct staging_cache *c = &staging_caches[staging_num_caches++];
   c->dev = dev;
   return c;
}

cl_int
mem_staging_alloc(struct _cl_device_id *dev, size_t size, void **host_ptr)
{
   if (size == 0)
      size = 1;
   if (!dev->has_system_pool)
      return ICD_ERROR(CL_OUT_OF_RESOURCES, "device %s has no system memory pool for staging",
                       dev->name);
   int cls = size_class(size);
   if (cls >= 0) {
      void *block = NULL;
      pthread_mutex_lock(&staging_lock);
      struct staging_cache *c = cache_get_locked(dev);
      if (c && c->count[cls]) {
         block = c->blocks[cls][--c->count[cls]];
         c->bytes -= class_bytes(cls);
      }
      pthread_mutex_unlock(&staging_lock);
      if (block) {
         *host_ptr = block;
         return CL_SUCCESS;
      }
      size = class_bytes(cls);
   }
   return rt_pool_alloc(dev->system_pool, size, &dev->agent, 1, CL_OUT_OF_RESOURCES,
                        "allocating staging memory", host_ptr);
}

void
mem_staging_free(struct _cl_device_id *dev, void *host_ptr, size_t size)
{
   if (!host_ptr)
      return;
   if (size == 0)
      size = 1;
   int cls = size_class(size);
   if (cls >= 0) {
      bool kept = false;
      pthread_mutex_lock(&staging_lock);
      struct staging_cache *c = cache_get_locked(dev);
      if (c && c->count[cls] < STAGING_KEEP && c->bytes + class_bytes(cls) <= STAGING_MAX_BYTES) {
         c->blocks[cls][c->count[cls]++] = host_ptr;
         c->bytes += class_bytes(cls);
         kept = true;
      }
      pthread_mutex_unlock(&staging_lock);
      if (kept)
         return;
   }
   rt_pool_free(host_ptr);
}
