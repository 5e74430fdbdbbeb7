# Writes a C++ source that holds a file's bytes (cmake -P, at build time):
#   cmake -DINPUT=file -DOUTPUT=out.cc -DSYMBOL=name -P embed_file.cmake
# The bytes become a char array, not a string literal, so no length limit
# applies (-Woverlength-strings) and no delimiter can clash with the text.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR size "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${INPUT} by cmake/embed_file.cmake; do not edit.\n"
  "#include <string_view>\n\n"
  "namespace perfdx::advisor {\n"
  "namespace {\n"
  "constexpr char kBytes[] = {\n${bytes}'\\0'};\n"
  "}  // namespace\n"
  "extern const std::string_view ${SYMBOL};\n"
  "const std::string_view ${SYMBOL}(kBytes, ${size});\n"
  "}  // namespace perfdx::advisor\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
