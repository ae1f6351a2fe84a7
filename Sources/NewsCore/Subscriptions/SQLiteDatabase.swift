import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A SQLite database (newsboat's `cache.db`) read through the system's library, loaded at run
/// time as libcurl is: no package, nothing linked. Where the library cannot be loaded,
/// ``Failure/unavailable`` says so and the caller carries on without it.
///
/// Text is copied out of SQLite's buffers by the length SQLite gives (never up to a NUL), before
/// the next step moves them.
final class SQLiteDatabase {
  /// Why a database could not be read.
  enum Failure: Error, Equatable {
    /// No SQLite library on this system.
    case unavailable
    /// What SQLite said.
    case sqlite(String)

    var detail: String {
      switch self {
      case .unavailable: "the system's SQLite library (libsqlite3) could not be loaded"
      case .sqlite(let message): message
      }
    }
  }

  /// The calls of SQLite's stable C API used here, found with `dlsym`.
  private struct Library: @unchecked Sendable {
    typealias Open =
      @convention(c) (
        UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafePointer<CChar>?
      ) -> Int32
    typealias Handle = @convention(c) (OpaquePointer?) -> Int32
    typealias Prepare =
      @convention(c) (
        OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?,
        UnsafeMutablePointer<UnsafePointer<CChar>?>?
      ) -> Int32
    typealias ColumnText = @convention(c) (OpaquePointer?, Int32) -> UnsafePointer<UInt8>?
    typealias ColumnInt = @convention(c) (OpaquePointer?, Int32) -> Int32
    typealias Message = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    typealias Execute =
      @convention(c) (
        OpaquePointer?, UnsafePointer<CChar>?, OpaquePointer?, OpaquePointer?, OpaquePointer?
      ) -> Int32

    var open: Open
    var close: Handle
    var prepare: Prepare
    var step: Handle
    var finalize: Handle
    var columnText: ColumnText
    var columnBytes: ColumnInt
    var columnType: ColumnInt
    var columnCount: Handle
    var message: Message
    var execute: Execute

    /// The library, once a process; `nil` when it or a call is missing.
    static let shared: Library? = {
      #if canImport(Darwin)
        let names = ["libsqlite3.dylib", "/usr/lib/libsqlite3.dylib"]
      #else
        let names = ["libsqlite3.so.0", "libsqlite3.so"]
      #endif
      guard let library = names.lazy.compactMap({ dlopen($0, RTLD_NOW | RTLD_LOCAL) }).first
      else { return nil }
      func find<T>(_ name: String, as type: T.Type) -> T? {
        dlsym(library, name).map { unsafeBitCast($0, to: type) }
      }
      guard let open = find("sqlite3_open_v2", as: Open.self),
        let close = find("sqlite3_close", as: Handle.self),
        let prepare = find("sqlite3_prepare_v2", as: Prepare.self),
        let step = find("sqlite3_step", as: Handle.self),
        let finalize = find("sqlite3_finalize", as: Handle.self),
        let columnText = find("sqlite3_column_text", as: ColumnText.self),
        let columnBytes = find("sqlite3_column_bytes", as: ColumnInt.self),
        let columnType = find("sqlite3_column_type", as: ColumnInt.self),
        let columnCount = find("sqlite3_column_count", as: Handle.self),
        let message = find("sqlite3_errmsg", as: Message.self),
        let execute = find("sqlite3_exec", as: Execute.self)
      else { return nil }
      return Library(
        open: open, close: close, prepare: prepare, step: step, finalize: finalize,
        columnText: columnText, columnBytes: columnBytes, columnType: columnType,
        columnCount: columnCount, message: message, execute: execute)
    }()
  }

  /// Whether the system's SQLite library can be loaded.
  static var isAvailable: Bool { Library.shared != nil }

  private let library: Library
  private let handle: OpaquePointer

  /// Opens the database at `path`: read-only, or `creating` it (tests write newsboat's schema).
  init(path: String, creating: Bool = false) throws(Failure) {
    guard let library = Library.shared else { throw .unavailable }
    self.library = library
    var handle: OpaquePointer?
    // SQLITE_OPEN_READONLY, or READWRITE | CREATE.
    let flags: Int32 = creating ? 0x2 | 0x4 : 0x1
    let status = library.open(path, &handle, flags, nil)
    guard status == 0, let handle else {
      let message = handle.flatMap { library.message($0) }.map { String(cString: $0) }
      if let handle { _ = library.close(handle) }
      throw .sqlite(message ?? "cannot be opened (SQLite error \(status))")
    }
    self.handle = handle
  }

  deinit {
    _ = library.close(handle)
  }

  /// Runs `sql` (statements without results).
  func execute(_ sql: String) throws(Failure) {
    guard library.execute(handle, sql, nil, nil, nil) == 0 else { throw .sqlite(lastMessage) }
  }

  /// The rows `sql` selects, each column as text (`nil` for NULL).
  func rows(_ sql: String) throws(Failure) -> [[String?]] {
    var statement: OpaquePointer?
    guard library.prepare(handle, sql, -1, &statement, nil) == 0, let statement else {
      throw .sqlite(lastMessage)
    }
    defer { _ = library.finalize(statement) }
    var rows: [[String?]] = []
    while true {
      let status = library.step(statement)
      // SQLITE_DONE, SQLITE_ROW.
      if status == 101 { break }
      guard status == 100 else { throw .sqlite(lastMessage) }
      var row: [String?] = []
      for column in 0..<library.columnCount(statement) {
        // SQLITE_NULL
        if library.columnType(statement, column) == 5 {
          row.append(nil)
          continue
        }
        let text = library.columnText(statement, column)
        let count = Int(library.columnBytes(statement, column))
        row.append(
          text.map { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) }
            ?? "")
      }
      rows.append(row)
    }
    return rows
  }

  private var lastMessage: String {
    library.message(handle).map { String(cString: $0) } ?? "SQLite error"
  }
}
