/* Image kernels of kfd_test_image_kernel: OpenCL image built-ins (ROCm device libraries)
 * against descriptors the HSA image extension wrote. Work-groups of 64; the item index is
 * computed without get_global_id so no hidden kernel arguments are needed. */
#define ID ((int)(get_group_id(0) * 64 + get_local_id(0)))

kernel void sample2d(read_only image2d_t img, sampler_t s, global const float2 *c,
                     global float4 *o, int n)
{
   if (ID < n)
      o[ID] = read_imagef(img, s, c[ID]);
}

kernel void sample2dui(read_only image2d_t img, sampler_t s, global const float2 *c,
                       global uint4 *o, int n)
{
   if (ID < n)
      o[ID] = read_imageui(img, s, c[ID]);
}

kernel void sample3d(read_only image3d_t img, sampler_t s, global const float4 *c,
                     global float4 *o, int n)
{
   if (ID < n)
      o[ID] = read_imagef(img, s, c[ID]);
}

kernel void sample2da(read_only image2d_array_t img, sampler_t s, global const float4 *c,
                      global float4 *o, int n)
{
   if (ID < n)
      o[ID] = read_imagef(img, s, c[ID]);
}

kernel void sample1da(read_only image1d_array_t img, sampler_t s, global const float2 *c,
                      global float4 *o, int n)
{
   if (ID < n)
      o[ID] = read_imagef(img, s, c[ID]);
}

kernel void load2d(read_only image2d_t img, global const int2 *c, global float4 *o, int n)
{
   if (ID < n)
      o[ID] = read_imagef(img, c[ID]);
}

kernel void store2d(write_only image2d_t img, global const int2 *c, global const float4 *v,
                    int n)
{
   if (ID < n)
      write_imagef(img, c[ID], v[ID]);
}

kernel void store2di(write_only image2d_t img, global const int2 *c, global const int4 *v,
                     int n)
{
   if (ID < n)
      write_imagei(img, c[ID], v[ID]);
}

kernel void load1db(read_only image1d_buffer_t img, global float4 *o, int n)
{
   if (ID < n)
      o[ID] = read_imagef(img, ID);
}

kernel void store1db(write_only image1d_buffer_t img, global const float4 *v, int n)
{
   if (ID < n)
      write_imagef(img, ID, v[ID]);
}

kernel void query(read_only image2d_t a, read_only image3d_t b, read_only image2d_array_t c,
                  read_only image1d_buffer_t d, global int *o)
{
   if (ID != 0)
      return;
   o[0] = get_image_width(a);
   o[1] = get_image_height(a);
   o[2] = get_image_channel_order(a);
   o[3] = get_image_channel_data_type(a);
   o[4] = get_image_width(b);
   o[5] = get_image_height(b);
   o[6] = get_image_depth(b);
   o[7] = (int)get_image_array_size(c);
   o[8] = get_image_width(d);
   o[9] = get_image_channel_order(d);
   o[10] = get_image_channel_data_type(d);
}

#pragma OPENCL EXTENSION cl_khr_depth_images : enable

kernel void sampledepth(read_only image2d_depth_t img, sampler_t s, global const float2 *c,
                        global float *o, int n)
{
   if (ID < n)
      o[ID] = read_imagef(img, s, c[ID]);
}

kernel void sampledeptha(read_only image2d_array_depth_t img, sampler_t s,
                         global const float4 *c, global float *o, int n)
{
   if (ID < n)
      o[ID] = read_imagef(img, s, c[ID]);
}

kernel void storedepth(write_only image2d_depth_t img, global const int2 *c,
                       global const float *v, int n)
{
   if (ID < n)
      write_imagef(img, c[ID], v[ID]);
}
