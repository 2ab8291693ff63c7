package dev.lakerewrite.noiseudf;

/** Argument checks with messages that name the argument and the value. */
final class Args {

  private Args() {}

  static int atLeast(String name, int value, int min) {
    if (value < min) {
      throw new IllegalArgumentException(name + " must be >= " + min + ", got " + value);
    }
    return value;
  }

  static int between(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(name + " must be in [" + min + ", " + max + "], got " + value);
    }
    return value;
  }
}
