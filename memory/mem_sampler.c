/*
 * memory/mem_sampler.c — sampler objects: clCreateSampler, clCreateSamplerWithProperties,
 * retain/release, clGetSamplerInfo (OpenCL 3.0 API §5.7).
 *
 * A sampler is one HSA sampler descriptor per image device of the context, made by the
 * runtime's image extension (hsa_ext_sampler_create): the S# words the texture unit
 * reads. A sampler kernel argument holds the descriptor's address (the handle), as ROCr's
 * OpenCL passes it; in-flight kernels hold internal references (dispatch/disp_kernel.c).
 * Samplers declared in OpenCL C (constant sampler_t, literal initialisers) need no driver
 * object: the ROCm device libraries' __translate_sampler_initializer returns the address
 * of a constant S# table in the code object.
 */
#include "mem_priv.h"

#include "runtime/rt.h"
#include "platform/plat.h"

#include <math.h>
#include <string.h>

static void
sampler_destroy(struct _cl_sampler *s)
{
   const struct rt_hsa *hsa = rt_hsa();
   for (cl_uint i = 0; i < s->num_handles; i++) {
      if (!s->handles[i].handle)
         continue;
      hsa_status_t st =
         hsa->img.hsa_ext_sampler_destroy(s->context->devices[i]->agent, s->handles[i]);
      if (st != HSA_STATUS_SUCCESS)
         rt_error(st, CL_OUT_OF_RESOURCES, "destroying a sampler descriptor");
   }
   if (s->context)
      plat_context_release_internal(s->context);
   icd_object_finish(&s->obj);
   icd_free(s->props);
   icd_free(s);
}

void
mem_sampler_retain_internal(struct _cl_sampler *s)
{
   icd_object_retain_internal(&s->obj);
}

void
mem_sampler_release_internal(struct _cl_sampler *s)
{
   if (icd_object_release_internal(&s->obj))
      sampler_destroy(s);
}

uint64_t
mem_sampler_descriptor(const struct _cl_sampler *s, const struct _cl_device_id *dev)
{
   const struct _cl_context *ctx = s->context;
   for (cl_uint i = 0; i < ctx->num_devices && i < s->num_handles; i++) {
      if (ctx->devices[i] == dev)
         return s->handles[i].handle;
   }
   return 0;
}

static hsa_ext_sampler_addressing_mode_t
hsa_addressing(cl_addressing_mode m)
{
   switch (m) {
   case CL_ADDRESS_CLAMP_TO_EDGE: return HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE;
   case CL_ADDRESS_CLAMP: return HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER;
   case CL_ADDRESS_REPEAT: return HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT;
   case CL_ADDRESS_MIRRORED_REPEAT: return HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT;
   default: return HSA_EXT_SAMPLER_ADDRESSING_MODE_UNDEFINED;
   }
}

/* cl_khr_mipmap_image's sampler properties, with the extension's defaults. */
struct mip_props {
   cl_filter_mode filter;
   cl_float lod_min, lod_max;
};
static const struct mip_props default_mip = { CL_FILTER_NEAREST, 0.0f, CL_MAXFLOAT };

/* A LOD in the S#'s unsigned 4.8 fixed point, clamped to what it holds [0, 4095/256]. */
static uint32_t
lod_u4_8(cl_float lod)
{
   if (!(lod > 0.0f))
      return 0;
   return lod >= 4095.0f / 256.0f ? 0xFFFu : (uint32_t)lrintf(lod * 256.0f);
}

/*
 * Sets the mip filter and LOD range of sampler handle `h` on a device reporting
 * cl_khr_mipmap_image: the HSA sampler descriptor has none, so they are written into the S#
 * the runtime made (its address is the handle; host-visible system memory on both
 * runtimes): MIP_FILTER (dword 2, bits 27:26: 1 point, 2 linear), MIN_LOD and MAX_LOD (dword
 * 1, bits 11:0 and 23:12, unsigned 4.8). The runtimes' own S# has MIP_FILTER NONE (always
 * level 0), which the extension's default, CL_FILTER_NEAREST between levels, replaces; on an
 * image of one level every mip filter samples level 0, so images without mip levels sample
 * as before.
 */
static void
set_mip_fields(hsa_ext_sampler_t h, const struct mip_props *mp)
{
   volatile uint32_t *r = (volatile uint32_t *)(uintptr_t)h.handle;
   uint32_t mip = mp->filter == CL_FILTER_LINEAR ? 2u : 1u;
   r[1] = (r[1] & ~0xFFFFFFu) | lod_u4_8(mp->lod_min) | lod_u4_8(mp->lod_max) << 12;
   r[2] = (r[2] & ~(3u << 26)) | mip << 26;
}

/* Returns a new sampler with one API reference; arguments validated. */
static cl_int
sampler_create(struct _cl_context *ctx, cl_bool norm, cl_addressing_mode addr,
               cl_filter_mode filter, const struct mip_props *mp,
               const cl_sampler_properties *props, size_t num_props, struct _cl_sampler **out)
{
   const struct rt_hsa *hsa = rt_hsa();
   struct _cl_sampler *s = icd_calloc(1, sizeof(*s));
   if (!s)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a sampler");
   icd_object_init(&s->obj, ICD_TYPE_SAMPLER);
   plat_context_retain_internal(ctx);
   s->context = ctx;
   s->normalized_coords = norm ? CL_TRUE : CL_FALSE;
   s->addressing_mode = addr;
   s->filter_mode = filter;
   s->mip_filter_mode = mp->filter;
   s->lod_min = mp->lod_min;
   s->lod_max = mp->lod_max;
   cl_int err = CL_SUCCESS;
   if (props) {
      s->props = icd_malloc(num_props * sizeof(*props));
      if (!s->props) {
         err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "copying sampler properties");
         goto out_destroy;
      }
      memcpy(s->props, props, num_props * sizeof(*props));
      s->num_props = num_props;
   }
   hsa_ext_sampler_descriptor_t d = {
      .coordinate_mode = norm ? HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED
                              : HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED,
      .filter_mode = filter == CL_FILTER_LINEAR ? HSA_EXT_SAMPLER_FILTER_MODE_LINEAR
                                                : HSA_EXT_SAMPLER_FILTER_MODE_NEAREST,
      .address_mode = hsa_addressing(addr),
   };
   s->num_handles = ctx->num_devices;
   for (cl_uint i = 0; i < ctx->num_devices; i++) {
      if (!ctx->devices[i]->image_support)
         continue;
      hsa_status_t st = hsa->img.hsa_ext_sampler_create(ctx->devices[i]->agent, &d,
                                                        &s->handles[i]);
      if (st != HSA_STATUS_SUCCESS) {
         s->handles[i].handle = 0;
         err = rt_error(st, CL_OUT_OF_RESOURCES, "hsa_ext_sampler_create");
         goto out_destroy;
      }
      if (plat_device_has_image_feature(ctx->devices[i], "cl_khr_mipmap_image"))
         set_mip_fields(s->handles[i], mp);
   }
   *out = s;
   return CL_SUCCESS;

out_destroy:
   sampler_destroy(s);
   return err;
}

/* True when a device of `ctx` reports cl_khr_mipmap_image (its sampler properties). */
static bool
context_has_mipmaps(const struct _cl_context *ctx)
{
   for (cl_uint i = 0; i < ctx->num_devices; i++) {
      if (plat_device_has_image_feature(ctx->devices[i], "cl_khr_mipmap_image"))
         return true;
   }
   return false;
}

/* A cl_float sampler property: the float's bits in the value's low 32 bits (a union of the
 * property and a float, as applications write it on little-endian hosts). */
static cl_float
prop_float(cl_sampler_properties v)
{
   uint32_t bits = (uint32_t)v;
   cl_float f;
   memcpy(&f, &bits, sizeof(f));
   return f;
}

static bool
context_has_images(const struct _cl_context *ctx)
{
   for (cl_uint i = 0; i < ctx->num_devices; i++) {
      if (ctx->devices[i]->image_support)
         return true;
   }
   return false;
}

/* §5.7.1: the values a sampler takes. */
static cl_int
check_sampler_values(cl_bool norm, cl_addressing_mode addr, cl_filter_mode filter)
{
   if (norm != CL_TRUE && norm != CL_FALSE)
      return ICD_ERROR(CL_INVALID_VALUE, "normalized_coords %u is not CL_TRUE or CL_FALSE",
                       (unsigned)norm);
   if (addr != CL_ADDRESS_NONE && hsa_addressing(addr) == HSA_EXT_SAMPLER_ADDRESSING_MODE_UNDEFINED)
      return ICD_ERROR(CL_INVALID_VALUE, "addressing mode 0x%x is not one of OpenCL's",
                       (unsigned)addr);
   if (filter != CL_FILTER_NEAREST && filter != CL_FILTER_LINEAR)
      return ICD_ERROR(CL_INVALID_VALUE, "filter mode 0x%x is not one of OpenCL's",
                       (unsigned)filter);
   return CL_SUCCESS;
}

cl_sampler CL_API_CALL
mem_CreateSamplerWithProperties(cl_context context,
                                const cl_sampler_properties *sampler_properties,
                                cl_int *errcode_ret)
{
   cl_int err;
   struct _cl_sampler *s = NULL;
   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx) {
      err = ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not an hsacl context", (void *)context);
      goto out;
   }
   cl_bool norm = CL_TRUE;
   cl_addressing_mode addr = CL_ADDRESS_CLAMP;
   cl_filter_mode filter = CL_FILTER_NEAREST;
   size_t num_props = 0;
   struct mip_props mp = default_mip;
   bool mips = context_has_mipmaps(ctx);
   if (sampler_properties) {
      bool seen_norm = false, seen_addr = false, seen_filter = false, seen_mip = false,
           seen_min = false, seen_max = false;
      size_t i = 0;
      for (; sampler_properties[i]; i += 2) {
         cl_sampler_properties name = sampler_properties[i], v = sampler_properties[i + 1];
         bool *seen;
         switch (name) {
         case CL_SAMPLER_NORMALIZED_COORDS: seen = &seen_norm; norm = (cl_bool)v; break;
         case CL_SAMPLER_ADDRESSING_MODE: seen = &seen_addr; addr = (cl_addressing_mode)v; break;
         case CL_SAMPLER_FILTER_MODE: seen = &seen_filter; filter = (cl_filter_mode)v; break;
         case CL_SAMPLER_MIP_FILTER_MODE_KHR:
            if (!mips)
               goto unknown;
            seen = &seen_mip;
            mp.filter = (cl_filter_mode)v;
            break;
         case CL_SAMPLER_LOD_MIN_KHR:
            if (!mips)
               goto unknown;
            seen = &seen_min;
            mp.lod_min = prop_float(v);
            break;
         case CL_SAMPLER_LOD_MAX_KHR:
            if (!mips)
               goto unknown;
            seen = &seen_max;
            mp.lod_max = prop_float(v);
            break;
         unknown:
         default:
            err = ICD_ERROR(CL_INVALID_VALUE, "unknown sampler property 0x%llx",
                            (unsigned long long)name);
            goto out;
         }
         if (*seen) {
            err = ICD_ERROR(CL_INVALID_VALUE, "sampler property 0x%llx given twice",
                            (unsigned long long)name);
            goto out;
         }
         *seen = true;
         if (name == CL_SAMPLER_NORMALIZED_COORDS && v != CL_TRUE && v != CL_FALSE) {
            err = ICD_ERROR(CL_INVALID_VALUE, "CL_SAMPLER_NORMALIZED_COORDS %llu",
                            (unsigned long long)v);
            goto out;
         }
      }
      num_props = i + 1;
   }
   err = check_sampler_values(norm, addr, filter);
   if (err != CL_SUCCESS)
      goto out;
   if (mp.filter != CL_FILTER_NEAREST && mp.filter != CL_FILTER_LINEAR) {
      err = ICD_ERROR(CL_INVALID_VALUE, "mip filter mode 0x%x is not one of OpenCL's",
                      (unsigned)mp.filter);
      goto out;
   }
   if (!context_has_images(ctx)) {
      err = ICD_ERROR(CL_INVALID_OPERATION, "no device of the context supports images");
      goto out;
   }
   err = sampler_create(ctx, norm, addr, filter, &mp, sampler_properties, num_props, &s);
   if (err != CL_SUCCESS)
      goto out;
   icd_set_errcode(errcode_ret, CL_SUCCESS);
   return mem_sampler_to_handle(s);
out:
   icd_set_errcode(errcode_ret, err);
   return NULL;
}

cl_sampler CL_API_CALL
mem_CreateSampler(cl_context context, cl_bool normalized_coords,
                  cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                  cl_int *errcode_ret)
{
   cl_int err;
   struct _cl_sampler *s = NULL;
   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx) {
      err = ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not an hsacl context", (void *)context);
      goto out;
   }
   err = check_sampler_values(normalized_coords, addressing_mode, filter_mode);
   if (err != CL_SUCCESS)
      goto out;
   if (!context_has_images(ctx)) {
      err = ICD_ERROR(CL_INVALID_OPERATION, "no device of the context supports images");
      goto out;
   }
   err = sampler_create(ctx, normalized_coords, addressing_mode, filter_mode, &default_mip,
                        NULL, 0, &s);
   if (err != CL_SUCCESS)
      goto out;
   icd_set_errcode(errcode_ret, CL_SUCCESS);
   return mem_sampler_to_handle(s);
out:
   icd_set_errcode(errcode_ret, err);
   return NULL;
}

cl_int CL_API_CALL
mem_RetainSampler(cl_sampler sampler)
{
   struct _cl_sampler *s = mem_sampler_from_handle(sampler);
   if (!s)
      return ICD_ERROR(CL_INVALID_SAMPLER, "%p is not a sampler", (void *)sampler);
   icd_object_retain(&s->obj);
   return CL_SUCCESS;
}

cl_int CL_API_CALL
mem_ReleaseSampler(cl_sampler sampler)
{
   struct _cl_sampler *s = mem_sampler_from_handle(sampler);
   if (!s)
      return ICD_ERROR(CL_INVALID_SAMPLER, "%p is not a sampler", (void *)sampler);
   if (icd_object_release(&s->obj))
      mem_sampler_release_internal(s);
   return CL_SUCCESS;
}

cl_int CL_API_CALL
mem_GetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name, size_t param_value_size,
                   void *param_value, size_t *param_value_size_ret)
{
   struct _cl_sampler *s = mem_sampler_from_handle(sampler);
   if (!s)
      return ICD_ERROR(CL_INVALID_SAMPLER, "%p is not a sampler", (void *)sampler);
   size_t pvs = param_value_size;
   void *pv = param_value;
   size_t *pvsr = param_value_size_ret;
   switch (param_name) {
   case CL_SAMPLER_REFERENCE_COUNT:
      return ICD_GET_INFO_SCALAR(cl_uint, icd_object_refcount(&s->obj), pvs, pv, pvsr);
   case CL_SAMPLER_CONTEXT:
      return ICD_GET_INFO_SCALAR(cl_context, plat_context_to_handle(s->context), pvs, pv, pvsr);
   case CL_SAMPLER_NORMALIZED_COORDS:
      return ICD_GET_INFO_SCALAR(cl_bool, s->normalized_coords, pvs, pv, pvsr);
   case CL_SAMPLER_ADDRESSING_MODE:
      return ICD_GET_INFO_SCALAR(cl_addressing_mode, s->addressing_mode, pvs, pv, pvsr);
   case CL_SAMPLER_FILTER_MODE:
      return ICD_GET_INFO_SCALAR(cl_filter_mode, s->filter_mode, pvs, pv, pvsr);
   case CL_SAMPLER_MIP_FILTER_MODE_KHR:
   case CL_SAMPLER_LOD_MIN_KHR:
   case CL_SAMPLER_LOD_MAX_KHR:
      if (!context_has_mipmaps(s->context))
         break;
      if (param_name == CL_SAMPLER_MIP_FILTER_MODE_KHR)
         return ICD_GET_INFO_SCALAR(cl_filter_mode, s->mip_filter_mode, pvs, pv, pvsr);
      return ICD_GET_INFO_SCALAR(cl_float, param_name == CL_SAMPLER_LOD_MIN_KHR ? s->lod_min
                                                                                : s->lod_max,
                                 pvs, pv, pvsr);
   case CL_SAMPLER_PROPERTIES:
      return icd_get_info(s->props, s->num_props * sizeof(cl_sampler_properties), pvs, pv,
                          pvsr);
   default:
      break;
   }
   return ICD_ERROR(CL_INVALID_VALUE, "unknown sampler query 0x%x", (unsigned)param_name);
}
