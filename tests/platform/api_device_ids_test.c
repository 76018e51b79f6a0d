/*
 * tests/platform/api_device_ids_test.c — cl_khr_pci_bus_info, cl_khr_device_uuid and
 * cl_amd_device_attribute_query (issue #16): reported, answered on every device, consistent
 * with each other and with the core queries, distinct between devices (run it with
 * HSACL_KFD_GPUS=2), and CL_DEVICE_GLOBAL_FREE_MEMORY_AMD follows the application's
 * allocations.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include "hsacl_test.h"

#define MAX_DEVICES 8

static cl_uint
uint_info(cl_device_id d, cl_device_info what)
{
   cl_uint v = 0xdeadbeef;
   CHECK_EQ_INT(clGetDeviceInfo(d, what, sizeof(v), &v, NULL), CL_SUCCESS);
   return v;
}

static size_t
free_kib(cl_device_id d)
{
   size_t kib[2] = { 0, 0 };
   size_t got = 0;
   CHECK_EQ_INT(clGetDeviceInfo(d, CL_DEVICE_GLOBAL_FREE_MEMORY_AMD, sizeof(kib), kib, &got),
                CL_SUCCESS);
   CHECK_EQ_INT(got, sizeof(kib));
   CHECK(kib[1] <= kib[0]);
   return kib[0];
}

static void
test_device(cl_device_id d, cl_device_pci_bus_info_khr *bus, cl_uchar uuid[CL_UUID_SIZE_KHR],
            cl_uchar driver_uuid[CL_UUID_SIZE_KHR])
{
   char ext[4096] = "";
   CHECK_EQ_INT(clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, sizeof(ext), ext, NULL), CL_SUCCESS);
   CHECK(strstr(ext, "cl_khr_pci_bus_info") != NULL);
   CHECK(strstr(ext, "cl_khr_device_uuid") != NULL);
   CHECK(strstr(ext, "cl_amd_device_attribute_query") != NULL);

   /* PCI location: the KHR structure and AMD's topology agree. */
   size_t got = 0;
   CHECK_EQ_INT(clGetDeviceInfo(d, CL_DEVICE_PCI_BUS_INFO_KHR, sizeof(*bus), bus, &got),
                CL_SUCCESS);
   CHECK_EQ_INT(got, sizeof(*bus));
   cl_device_topology_amd topo;
   memset(&topo, 0xff, sizeof(topo));
   CHECK_EQ_INT(clGetDeviceInfo(d, CL_DEVICE_TOPOLOGY_AMD, sizeof(topo), &topo, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(topo.pcie.type, CL_DEVICE_TOPOLOGY_TYPE_PCIE_AMD);
   CHECK_EQ_INT((cl_uchar)topo.pcie.bus, bus->pci_bus);
   CHECK_EQ_INT((cl_uchar)topo.pcie.device, bus->pci_device);
   CHECK_EQ_INT((cl_uchar)topo.pcie.function, bus->pci_function);
   CHECK(bus->pci_device < 32 && bus->pci_function < 8);

   /* UUIDs: 16 bytes, the device's not all zero; no LUID on Linux. */
   CHECK_EQ_INT(clGetDeviceInfo(d, CL_DEVICE_UUID_KHR, CL_UUID_SIZE_KHR, uuid, &got),
                CL_SUCCESS);
   CHECK_EQ_INT(got, CL_UUID_SIZE_KHR);
   int nonzero = 0;
   for (int i = 0; i < CL_UUID_SIZE_KHR; i++)
      nonzero |= uuid[i];
   CHECK(nonzero);
   CHECK_EQ_INT(clGetDeviceInfo(d, CL_DRIVER_UUID_KHR, CL_UUID_SIZE_KHR, driver_uuid, NULL),
                CL_SUCCESS);
   cl_bool luid_valid = CL_TRUE;
   CHECK_EQ_INT(clGetDeviceInfo(d, CL_DEVICE_LUID_VALID_KHR, sizeof(luid_valid), &luid_valid,
                                NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(luid_valid, CL_FALSE);
   /* A too-small buffer is CL_INVALID_VALUE, as for every query. */
   cl_uchar small[4];
   CHECK_EQ_INT(clGetDeviceInfo(d, CL_DEVICE_UUID_KHR, sizeof(small), small, NULL),
                CL_INVALID_VALUE);

   /* AMD's attributes against the core queries and the gfx9 (wave64 GCN) facts. */
   char board[256] = "", name[64] = "";
   CHECK_EQ_INT(clGetDeviceInfo(d, CL_DEVICE_BOARD_NAME_AMD, sizeof(board), board, NULL),
                CL_SUCCESS);
   CHECK(board[0] != '\0');
   CHECK_EQ_INT(clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof(name), name, NULL), CL_SUCCESS);
   size_t wg_multiple = 0;
   CHECK_EQ_INT(clGetDeviceInfo(d, CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                sizeof(wg_multiple), &wg_multiple, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(uint_info(d, CL_DEVICE_WAVEFRONT_WIDTH_AMD), wg_multiple);
   if (!strcmp(name, "gfx906")) {
      CHECK_EQ_INT(uint_info(d, CL_DEVICE_GFXIP_MAJOR_AMD), 9);
      CHECK_EQ_INT(uint_info(d, CL_DEVICE_GFXIP_MINOR_AMD), 0);
      CHECK_EQ_INT(uint_info(d, CL_DEVICE_SIMD_PER_COMPUTE_UNIT_AMD), 4);
      CHECK_EQ_INT(uint_info(d, CL_DEVICE_SIMD_WIDTH_AMD), 16);
      CHECK_EQ_INT(uint_info(d, CL_DEVICE_GLOBAL_MEM_CHANNELS_AMD), 4096 / 32);
   }
   CHECK_EQ_INT(uint_info(d, CL_DEVICE_SIMD_INSTRUCTION_WIDTH_AMD), 1);
   CHECK_EQ_INT(uint_info(d, CL_DEVICE_LOCAL_MEM_BANKS_AMD), 32);
   cl_ulong local = 0;
   CHECK_EQ_INT(clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(local), &local, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(uint_info(d, CL_DEVICE_LOCAL_MEM_SIZE_PER_COMPUTE_UNIT_AMD), local);
   size_t max_wg = 0, max_wg_amd = 0;
   CHECK_EQ_INT(clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(max_wg), &max_wg,
                                NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE_AMD, sizeof(max_wg_amd),
                                &max_wg_amd, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(max_wg_amd, max_wg);
   CHECK(uint_info(d, CL_DEVICE_AVAILABLE_ASYNC_QUEUES_AMD) >= 1);
   /* ROCm's two undocumented real-time queries (clinfo asks them): no real-time queues. */
   CHECK_EQ_INT(uint_info(d, 0x404D), 0);
   CHECK_EQ_INT(uint_info(d, 0x404E), 0);

   /* Free memory follows a 64 MiB buffer's life. */
   cl_int err;
   cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   size_t before = free_kib(d);
   cl_ulong global = 0;
   clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(global), &global, NULL);
   CHECK(before <= global / 1024);
   cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64u << 20, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(before - free_kib(d), 64 * 1024);
   clReleaseMemObject(m);
   CHECK_EQ_INT(free_kib(d), before);
   clReleaseContext(ctx);
}

int
main(int argc, char **argv)
{
   unsigned want = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
   cl_platform_id platform;
   cl_device_id devs[MAX_DEVICES];
   cl_uint n = 0;
   CHECK_EQ_INT(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, MAX_DEVICES, devs, &n),
                CL_SUCCESS);
   CHECK_EQ_INT(n, want);
   cl_device_pci_bus_info_khr bus[MAX_DEVICES];
   cl_uchar uuid[MAX_DEVICES][CL_UUID_SIZE_KHR], driver[MAX_DEVICES][CL_UUID_SIZE_KHR];
   for (cl_uint i = 0; i < n && i < MAX_DEVICES; i++)
      test_device(devs[i], &bus[i], uuid[i], driver[i]);
   /* Distinct boards, one driver. */
   for (cl_uint i = 0; i < n; i++) {
      for (cl_uint j = i + 1; j < n; j++) {
         CHECK(memcmp(uuid[i], uuid[j], CL_UUID_SIZE_KHR) != 0);
         CHECK(memcmp(&bus[i], &bus[j], sizeof(bus[i])) != 0);
         CHECK(memcmp(driver[i], driver[j], CL_UUID_SIZE_KHR) == 0);
      }
   }
   return test_main_end();
}
