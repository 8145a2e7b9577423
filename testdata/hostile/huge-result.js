// expect: error VALUE_TOO_LARGE
return "x".repeat(2 << 20);
