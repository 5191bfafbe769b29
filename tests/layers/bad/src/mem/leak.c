/* a fixture for the layer check: mem/ reaching up into gpu/ */
#include "../gpu/gpu.h"
#include "../common/config.h"
