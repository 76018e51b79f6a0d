/* hsacl-cc without --extensions enables what a device reports (cl_khr_integer_dot_product and
 * the extended bit operations among them), as clBuildProgram does. */
kernel void k(global int *o, char4 a, char4 b, uint c)
{
   o[0] = dot(a, b);
   o[1] = (int)bitfield_extract_unsigned(c, 3u, 5u);
}
