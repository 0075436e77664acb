#include "greet.h"

#include <stdio.h>

void greet(const char *name) {
    printf("Hello, %s!\n", name);
}

/* Greets each of the names, in order. */
void greet_all(const char **names, int count) {
	for (int i = 0; i < count; i++) {
		greet(names[i]);
	}
}

/* A greeting for the names of a list, joined by commas. */
void greet_list(const char **names, int count) {
    printf("Hello");
    for (int i = 0; i < count; i++) printf("%s %s", i ? "," : "", names[i]);
    printf("!\n");
}

/* Says goodbye. */
void farewell(const char *name) {
    printf("Goodbye, %s!\n", name); 
}
