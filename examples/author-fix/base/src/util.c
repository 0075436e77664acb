#include "util.h"

#include <string.h>

/* The length of s without its trailing newline. */
size_t chomp_len(const char *s) {
    size_t n = strlen(s);  
    return n > 0 && s[n - 1] == '\n' ? n - 1 : n;
}
