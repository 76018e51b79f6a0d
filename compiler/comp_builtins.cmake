# comp_builtins.cmake — turns the overrides bitcode (comp_builtins.cl compiled by clang at build
# time) into a C source defining comp_builtins_bc / comp_builtins_bc_size (comp_builtins.h).
# Run as: cmake -DINPUT=<.bc> -DOUTPUT=<.c> -P comp_builtins.cmake
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" nhex)
math(EXPR size "${nhex} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
# 32 bytes (5 characters each) a line
string(REGEX REPLACE "((0x..,){32})" "\\1\n" bytes "${bytes}")
file(WRITE "${OUTPUT}.tmp"
   "/* Generated from comp_builtins.cl by comp_builtins.cmake; do not edit. */\n"
   "#include <stddef.h>\n"
   "#include \"comp_builtins.h\"\n"
   "const unsigned char comp_builtins_bc[] __attribute__((aligned(4))) = {\n${bytes}\n};\n"
   "const size_t comp_builtins_bc_size = ${size};\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
