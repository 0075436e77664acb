#pragma once

void greet(const char *name);
void greet_all(const char **names, int count);
void greet_list(const char **names, int count);
void farewell(const char *name);
