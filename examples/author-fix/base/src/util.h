#pragma once

#include <stddef.h>

size_t chomp_len(const char *s);
