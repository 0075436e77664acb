#include "greet.h"

int main(int argc, char **argv) {
    if (argc > 2) {
        greet_all((const char **)argv + 1, argc - 1);
    } else {
        greet(argc > 1 ? argv[1] : "world");
    }
    farewell(argc > 1 ? argv[1] : "world");
    return 0;
}
