#include "unit.h"
int main(void) { return 77; }
