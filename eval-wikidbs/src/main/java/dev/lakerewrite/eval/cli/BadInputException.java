package dev.lakerewrite.eval.cli;

/** Input the user can fix (a missing lake, a broken pair file, an unknown method): exit code 2 and the message. */
final class BadInputException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  BadInputException(String message) {
    super(message);
  }

  BadInputException(String message, Throwable cause) {
    super(message, cause);
  }
}
