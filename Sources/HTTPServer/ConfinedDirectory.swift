import CSystem
import HTTPWire
import Glibc
import Synchronization

/// A directory that files are served from, held open by descriptor. Every file is opened relative to
/// it, and no symlink, `..` or rename can make an open reach outside it: a path is never checked and
/// then opened again by name (the swap of a file for a symlink between the two is what that loses to).
/// Symlinks whose targets stay inside keep working. Meant for local file systems: an open may wait on
/// the disk, but never on a peer (network file systems can hang the thread that opens).
public final class ConfinedDirectory: Sendable {
    /// How a path is resolved beneath the directory.
    public enum Resolution: Sendable {
        /// openat2(2) with RESOLVE_BENEATH; the walk from the first ENOSYS or EPERM on (older kernels,
        /// and container seccomp profiles that refuse the call).
        case automatic
        /// openat2 only: ENOSYS or EPERM are the caller's.
        case kernel
        /// Component by component with O_NOFOLLOW, symlinks resolved here (see `walk`).
        case walk
    }

    /// The most symlinks one open follows, as the kernel's own limit (ELOOP past it).
    public static let maxSymlinks = 40

    /// The directory's path as given, for logs.
    public let path: String
    let descriptor: Int32
    private let resolution: Resolution
    /// Set once openat2 answered ENOSYS or EPERM under `.automatic`: every later open walks.
    private let kernelRefused = Atomic<Bool>(false)

    /// Opens `path` as the directory (O_PATH: it is only ever a base for lookups). Throws when it is
    /// missing or not a directory.
    public init(path: String, resolution: Resolution = .automatic) throws(HTTPServerError) {
        let descriptor = Glibc.open(path, csystem_o_path | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw HTTPServerError.system("open(\(path))", errno: errno) }
        self.path = path
        self.descriptor = descriptor
        self.resolution = resolution
    }

    deinit { _ = Glibc.close(descriptor) }

    /// Whether the next open resolves with openat2 (false once it fell back to the walk, or by choice).
    public var resolvesInKernel: Bool {
        switch resolution {
        case .automatic: !kernelRefused.load(ordering: .relaxed)
        case .kernel: true
        case .walk: false
        }
    }

    /// Opens the regular file at `relativePath` ("/"-separated, below the directory) for reading. The
    /// open never blocks (O_NONBLOCK: a FIFO or device does not hold the thread) and the descriptor is
    /// then checked with fstat: only a regular file is returned. Throws with errno ENOENT or ENOTDIR for
    /// nothing there, EXDEV or ELOOP for a path that would leave the directory, and "not a regular file".
    public func openFile(_ relativePath: String) throws(HTTPServerError) -> HTTPFile {
        let flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC
        let descriptor = try openDescriptor(relativePath, flags: flags)
        return try HTTPFile(adopting: descriptor, name: relativePath)
    }

    private func openDescriptor(_ relativePath: String, flags: Int32) throws(HTTPServerError) -> Int32 {
        let lookup = relativePath.isEmpty ? "." : relativePath
        guard !lookup.hasPrefix("/"), !lookup.containsUTF8(0) else {
            throw HTTPServerError.system("open(\(relativePath))", errno: EXDEV)
        }
        if resolvesInKernel {
            let opened = lookup.withCString { csystem_openat2_beneath(descriptor, $0, flags) }
            if opened >= 0 { return opened }
            let code = errno
            guard resolution == .automatic, code == ENOSYS || code == EPERM else {
                throw HTTPServerError.system("openat2(\(relativePath))", errno: code)
            }
            kernelRefused.store(true, ordering: .relaxed)
        }
        return try walk(lookup, flags: flags)
    }
}

extension ConfinedDirectory {
    /// Resolves `relativePath` one component at a time, each opened with O_NOFOLLOW relative to the
    /// descriptor of the directory before it, so nothing is ever looked up by a path that could have
    /// changed. A symlink is read (readlinkat) and its target's components take its place: an absolute
    /// target, or a `..` above the directory, is an escape (EXDEV, as RESOLVE_BENEATH answers); more than
    /// `maxSymlinks` links is ELOOP. `..` pops the directories this walk opened, never the file system's.
    func walk(_ relativePath: String, flags: Int32) throws(HTTPServerError) -> Int32 {
        // Components still to resolve, the next one last.
        var pending = Array(Self.names(relativePath).reversed())
        // A trailing "/" asks for a directory, as it does of openat2: "file.txt/" ends in ".", so the
        // file is wanted as a directory (ENOTDIR) instead of opened.
        if relativePath.hasSuffix("/"), !pending.isEmpty { pending.insert(".", at: 0) }
        // Directories opened below the root, innermost last; the root itself is not in it.
        var opened: [Int32] = []
        defer { for directory in opened { _ = Glibc.close(directory) } }
        var links = 0
        func failure(_ code: Int32) -> HTTPServerError { HTTPServerError.system("open(\(relativePath))", errno: code) }
        // The path ends on a directory (empty, `a/.`, `a/..`): it is opened for what it is, so fstat
        // reports a directory and it is refused as one.
        func openItself(_ directory: Int32) throws(HTTPServerError) -> Int32 {
            let itself = Glibc.openat(directory, ".", flags)
            guard itself >= 0 else { throw failure(errno) }
            return itself
        }
        if pending.isEmpty { return try openItself(descriptor) }
        while let name = pending.popLast() {
            if name == "." || name == ".." {
                if name == ".." {
                    guard let innermost = opened.popLast() else { throw failure(EXDEV) }
                    _ = Glibc.close(innermost)
                }
                if pending.isEmpty { return try openItself(opened.last ?? descriptor) }
                continue
            }
            let current = opened.last ?? descriptor
            let isLast = pending.isEmpty
            let stepFlags = isLast ? flags | O_NOFOLLOW : csystem_o_path | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
            let next = name.withCString { Glibc.openat(current, $0, stepFlags) }
            if next >= 0 {
                if isLast { return next }
                opened.append(next)
                continue
            }
            let code = errno
            // O_NOFOLLOW on a symlink: ELOOP for the last component, ENOTDIR where a directory is wanted.
            guard code == ELOOP || code == ENOTDIR else { throw failure(code) }
            guard let target = Self.readLink(current, name) else {
                let readCode = errno
                // EINVAL: not a symlink. A directory wanted and a file found is ENOTDIR; a symlink that
                // was swapped back for a file since the open is looked up again (counted as a link).
                guard readCode == EINVAL, code == ELOOP else { throw failure(readCode == EINVAL ? code : readCode) }
                links += 1
                guard links <= Self.maxSymlinks else { throw failure(ELOOP) }
                pending.append(name)
                continue
            }
            links += 1
            guard links <= Self.maxSymlinks else { throw failure(ELOOP) }
            guard !target.isEmpty else { throw failure(ENOENT) }
            guard !target.hasPrefix("/") else { throw failure(EXDEV) }
            let parts = Self.names(target)
            // A target ending in "/" or naming "." must still resolve to what it names.
            pending.append(contentsOf: (parts.isEmpty || target.hasSuffix("/") ? parts + ["."] : parts).reversed())
        }
        throw failure(ENOENT)
    }

    /// The non-empty "/"-separated names of `path`, split by bytes, as the kernel reads a path. Split by
    /// Characters, a "/" that Unicode joins to its neighbour (a combining mark or U+200D after it, U+0600
    /// before it) stayed inside one name, and openat then resolved the part before it, following a
    /// symlink there out of the directory.
    static func names(_ path: String) -> [String] {
        let utf8 = path.utf8
        var names: [String] = []
        var start = utf8.startIndex
        var index = start
        while index < utf8.endIndex {
            if utf8[index] == UInt8(ascii: "/") {
                if start < index { names.append(String(path[start..<index])) }
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        if start < utf8.endIndex { names.append(String(path[start...])) }
        return names
    }

    /// The target of the symlink `name` in directory `directory`, or nil with errno set.
    static func readLink(_ directory: Int32, _ name: String) -> String? {
        let capacity = Int(PATH_MAX)
        var buffer = [CChar](repeating: 0, count: capacity)
        let count = buffer.withUnsafeMutableBufferPointer { room -> Int in
            guard let base = room.baseAddress else { return -1 }
            return name.withCString { readlinkat(directory, $0, base, capacity) }
        }
        guard count >= 0 else { return nil }
        // A target as long as the buffer may have been cut: refused rather than guessed at.
        guard count < capacity else {
            errno = ENAMETOOLONG
            return nil
        }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
