/* stb's image reader and writer compiled into the WebAssembly build: natively the library links
 * Debian's libstb (pkg-config stb), which an Emscripten build cannot use. Only the formats
 * pathlab reads and writes, and no stdio (the module has no file system). */
#define STB_IMAGE_IMPLEMENTATION
#define STBI_NO_STDIO
#define STBI_ONLY_PNG
#define STBI_ONLY_BMP
#define STBI_ONLY_GIF
#define STBI_ONLY_JPEG
#include <stb_image.h>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO
#include <stb_image_write.h>
