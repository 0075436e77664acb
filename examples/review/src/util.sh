#!/bin/sh
# Prints its arguments, one per line.
for a in "$@"; do echo "$a"; done
