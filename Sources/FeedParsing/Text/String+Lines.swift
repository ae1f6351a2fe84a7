extension StringProtocol {
  /// The text without a leading byte-order mark.
  package var droppingByteOrderMark: SubSequence {
    first == "\u{FEFF}" ? dropFirst() : self[...]
  }

  /// The lines of a text file written anywhere: without a byte-order mark, split at LF, CRLF or
  /// CR (Swift counts `\r\n` as one character, so splitting at `"\n"` alone misses it).
  package var textFileLines: [SubSequence.SubSequence] {
    droppingByteOrderMark.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
  }
}
