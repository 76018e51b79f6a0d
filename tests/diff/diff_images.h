/*
 * tests/diff/diff_images.h — what the two files of the image differential test share
 * (diff_images.c: devices, formats, the copy and rw groups; diff_images_sample.c: the host's
 * texel decoding and sampling, the sample group). diff_images.c's top comment says what is
 * tested and how.
 */
#ifndef HSACL_DIFF_IMAGES_H
#define HSACL_DIFF_IMAGES_H

#define CL_TARGET_OPENCL_VERSION 300 /* the 2.0 channel orders (sRGB, ABGR) */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue, clCreateSampler */
#include <CL/cl.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MAX_FORMATS 256
#define NSAMPLES 256 /* coordinates per sampler case */

struct imgtype {
   const char *name;
   cl_mem_object_type type;
   size_t w, h, d; /* width; rows (1D array: layers); slices (2D array: layers) */
   const char *cl_type, *icoord, *fcoord; /* OpenCL C type, int and float coordinate */
   int write_ext3d;                       /* writes need cl_khr_3d_image_writes */
};

/* The sizes are odd and small: edges everywhere, quick on the software GPU. */
#define NTYPES 6
extern const struct imgtype imgtypes[NTYPES];

enum kind { K_FLOAT, K_INT, K_UINT };

struct fmt {
   cl_image_format f;
   int nch;       /* stored channels */
   size_t esz;    /* bytes per texel */
   size_t csz;    /* bytes per channel; 0 for packed types */
   enum kind kind;
   char name[64];
};

struct dev {
   const char *label;
   cl_device_id id;
   cl_context ctx;
   cl_command_queue q;
   char extensions[4096];
   /* Formats listed per image type, for CL_MEM_READ_ONLY [0] and CL_MEM_WRITE_ONLY [1]. */
   cl_image_format formats[NTYPES][2][MAX_FORMATS];
   cl_uint nformats[NTYPES][2];
   /* Programs built so far, by source (each kernel serves every format of its kind). */
   struct built {
      char *src;
      cl_program prog;
      cl_kernel k;
   } built[64];
   unsigned nbuilt;
};

/* Records a failed CL call in msg (char msg[], size_t msglen in scope) and jumps to out. */
#define CHECK(call, what)                                                                    \
   do {                                                                                     \
      cl_int e_ = (call);                                                                   \
      if (e_ != CL_SUCCESS) {                                                               \
         snprintf(msg, msglen, "%s: %s returned %d", d->label, what, e_);                   \
         goto out;                                                                          \
      }                                                                                     \
   } while (0)

/* diff_images.c */
int fmt_describe(cl_image_format f, struct fmt *out);
int is_normalized(const struct fmt *f);
int is_srgb(const struct fmt *f);
int order_map(cl_channel_order o, int map[4]);
int lists(const struct dev *d, unsigned t, int write, cl_image_format f);
cl_mem make_image(struct dev *d, const struct imgtype *t, const struct fmt *f,
                  cl_mem_flags flags, cl_mem *buf, cl_int *err);
void release_image(cl_mem img, cl_mem buf);
uint64_t seed_of(const char *name, unsigned salt);
double uniform(uint64_t *s);
void fill_texels(const struct fmt *f, void *buf, size_t n, uint64_t seed);
float half_to_float(uint16_t h);
size_t texels(const struct imgtype *t);
int selected(const char *name);
void report(const char *name, const char *msg, const char *detail);
void not_run(const char *name, const char *why);
const char *suffix(const struct fmt *f);
const char *vec4(const struct fmt *f);
cl_kernel build(struct dev *d, const char *src, char *msg, size_t msglen);

/* diff_images_sample.c */
int decode_texel(const struct fmt *f, const unsigned char *p, double out[4]);
void border_color(const struct fmt *f, double out[4]);
size_t check_reads(const struct fmt *f, const void *got, const double *want, size_t n,
                   char *msg, size_t msglen);
void group_sample(struct dev *hs, struct dev *pocl);

#endif
