import HLS

/// libFuzzer entry: playlist parse, lossless round trip, media-playlist parse and master rewrite.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlaylist(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let playlist = try? Playlist.parse(bytes) {
        // The model is lossless: what parsed serializes back to the same bytes (a leading BOM is dropped).
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        if playlist.serialized() != body { fatalError("playlist round trip changed the bytes") }
    }
    _ = try? MediaPlaylist.parse(bytes)
    let tracks = [
        SubtitleTrack(name: "English", language: "en", isDefault: true, autoselect: true),
        SubtitleTrack(name: "Français", language: "fr", forced: true, characteristics: ["public.easy-to-read"]),
    ]
    if let rewritten = try? MasterPlaylistRewriter(tracks: tracks).rewrite(bytes, uri: { "/subs/\($0).m3u8" }) {
        // A rewritten master must itself parse.
        if (try? Playlist.parse(rewritten)) == nil { fatalError("rewritten master does not parse") }
    }
    return 0
}
