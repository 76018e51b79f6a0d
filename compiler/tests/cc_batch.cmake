# hsacl-cc --batch: several compilations in one process, each with its own outputs and
# status, a failing one between two good ones, and a line without -o (usage error).
# cmake -DCC=hsacl-cc -DKERNELS=dir -DOUT=dir -P cc_batch.cmake
file(MAKE_DIRECTORY ${OUT})
string(JOIN "\n" list
   "-mcpu=gfx906\t--metadata\t${KERNELS}/k01_vadd.cl\t-o\t${OUT}/b1.co"
   "-cl-no-such-option\t${KERNELS}/k01_vadd.cl\t-o\t${OUT}/b2.co"
   "-mcpu=gfx1030\t--metadata\t${KERNELS}/k01_vadd.cl\t-o\t${OUT}/b3.co"
   "${KERNELS}/k01_vadd.cl"
   "")
file(WRITE ${OUT}/batch.list "${list}")
file(REMOVE ${OUT}/b1.co ${OUT}/b2.co ${OUT}/b3.co)
execute_process(COMMAND ${CC} --batch=${OUT}/batch.list RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
   message(FATAL_ERROR "hsacl-cc --batch exited with ${rc}: ${err}")
endif()
if(NOT out STREQUAL "done 1 0\ndone 2 1\ndone 3 0\ndone 4 2\n")
   message(FATAL_ERROR "unexpected statuses:\n${out}")
endif()
if(NOT err MATCHES "a line without -o OUTPUT")
   message(FATAL_ERROR "line 4's usage error not on the batch's standard error: ${err}")
endif()
file(READ ${OUT}/b1.co.out m1)
file(READ ${OUT}/b3.co.out m3)
file(READ ${OUT}/b2.co.err e2)
if(NOT m1 MATCHES "^kernel [a-z_]+ .* wave64" OR NOT m3 MATCHES "^kernel [a-z_]+ .* wave32")
   message(FATAL_ERROR "metadata of lines 1 and 3 not in their .out files:\n${m1}\n${m3}")
endif()
if(NOT e2 MATCHES "unknown option '-cl-no-such-option'" OR EXISTS ${OUT}/b2.co)
   message(FATAL_ERROR "line 2: build log not in b2.co.err, or an output written:\n${e2}")
endif()
if(NOT EXISTS ${OUT}/b1.co OR NOT EXISTS ${OUT}/b3.co)
   message(FATAL_ERROR "lines 1 and 3 wrote no code object")
endif()
