// stb_image compiled into the image fuzz target, so that the decoder is instrumented too and the
// fuzzer gets coverage from inside it. The executable's definitions take precedence over the
// uninstrumented libstb.so that pathlab::io links; both come from the same stb_image.h.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wall"
#pragma clang diagnostic ignored "-Wextra"
#pragma clang diagnostic ignored "-Wpedantic"
#endif
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
