/* fixture: gpu/ reaching into core/ internals */
#include "../core/core_int.h"
