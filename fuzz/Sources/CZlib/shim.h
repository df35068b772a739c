// The system zlib, for FuzzInflate's differential check only: the proxy itself does not link it.
#include <zlib.h>
