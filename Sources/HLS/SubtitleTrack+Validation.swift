/// One way a subtitle track, or a group of them, breaks RFC 8216's rules for `EXT-X-MEDIA`.
public struct TrackProblem: Sendable, Equatable, CustomStringConvertible {
    /// Position of the offending track in the list that was checked.
    public var trackIndex: Int
    /// The `SubtitleTrack` property at fault: `name`, `language`, `assocLanguage`, `isDefault`,
    /// `autoselect`, or `characteristics[i]` for one characteristic.
    public var field: String
    /// What is wrong, quoting the offending value.
    public var message: String

    /// Makes a problem report.
    public init(trackIndex: Int, field: String, message: String) {
        self.trackIndex = trackIndex
        self.field = field
        self.message = message
    }

    /// `tracks[i].field: message`.
    public var description: String { "tracks[\(trackIndex)].\(field): \(message)" }
}

extension SubtitleTrack {
    /// Characteristics RFC 8216 §4.3.4.1 names for subtitle renditions.
    public static let knownCharacteristics: Set<String> = [
        "public.accessibility.transcribes-spoken-dialog",
        "public.accessibility.describes-music-and-sound",
        "public.easy-to-read",
    ]

    /// Every rule the tracks break as members of one SUBTITLES group, in track order; empty when valid.
    public static func problems(in tracks: [SubtitleTrack]) -> [TrackProblem] {
        var problems: [TrackProblem] = []
        var firstIndexByName: [String: Int] = [:]
        var firstDefaultIndex: Int?
        var firstIndexByAutoselectKey: [AutoselectKey: Int] = [:]

        for (index, track) in tracks.enumerated() {
            func report(_ field: String, _ message: String) {
                problems.append(TrackProblem(trackIndex: index, field: field, message: message))
            }

            // RFC 8216 §4.3.4.1: NAME is required and unique within the group.
            if track.name.isEmpty {
                report("name", "name is empty; NAME is required")
            } else if let message = quotedStringProblem("name", track.name) {
                report("name", message)
            } else if let first = firstIndexByName[track.name] {
                report("name", "name \(quoted(track.name)) is already used by track \(first); NAME must be unique in a group")
            } else {
                firstIndexByName[track.name] = index
            }

            if track.language.isEmpty {
                report("language", "language is empty; subtitle tracks need a LANGUAGE")
            } else if !isLanguageTag(track.language) {
                report("language", "language \(quoted(track.language)) is not an RFC 5646 tag")
            }
            if let assoc = track.assocLanguage, !isLanguageTag(assoc) {
                report("assocLanguage", "assoc-language \(quoted(assoc)) is not an RFC 5646 tag")
            }

            // RFC 8216 §4.3.4.1.1: at most one member of a group has DEFAULT=YES.
            if track.isDefault {
                if let first = firstDefaultIndex {
                    report("isDefault", "track \(first) is already DEFAULT=YES; a group has at most one default")
                } else {
                    firstDefaultIndex = index
                }
                // RFC 8216 §4.3.4.1: if DEFAULT is YES, AUTOSELECT must be YES.
                if !track.autoselect {
                    report("autoselect", "DEFAULT=YES requires AUTOSELECT=YES")
                }
            }

            for (position, characteristic) in track.characteristics.enumerated() {
                if let message = characteristicProblem(characteristic) {
                    report("characteristics[\(position)]", message)
                }
            }

            // RFC 8216 §4.3.4.1.1: AUTOSELECT members should differ in LANGUAGE, ASSOC-LANGUAGE,
            // FORCED or CHARACTERISTICS, or a client cannot choose between them.
            if track.autoselect {
                let key = AutoselectKey(track)
                if let first = firstIndexByAutoselectKey[key] {
                    report(
                        "autoselect",
                        "AUTOSELECT track has the same LANGUAGE, ASSOC-LANGUAGE, FORCED and CHARACTERISTICS as track \(first); "
                            + "AUTOSELECT members must differ in one of them")
                } else {
                    firstIndexByAutoselectKey[key] = index
                }
            }
        }
        return problems
    }

    /// What makes two AUTOSELECT members indistinguishable; language tags compare case-insensitively (RFC 5646 §2.1.1).
    private struct AutoselectKey: Hashable {
        var language: String
        var assocLanguage: String?
        var forced: Bool
        var characteristics: Set<String>

        init(_ track: SubtitleTrack) {
            language = SubtitleTrack.asciiLowercased(track.language)
            assocLanguage = track.assocLanguage.map(SubtitleTrack.asciiLowercased)
            forced = track.forced
            characteristics = Set(track.characteristics)
        }
    }

    /// RFC 8216 §4.2: a quoted-string cannot contain `"`, CR or LF, and has no escape for them.
    private static func quotedStringProblem(_ field: String, _ value: String) -> String? {
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": return "\(field) \(quoted(value)) contains a double quote, which a quoted HLS attribute cannot carry"
            case "\r", "\n": return "\(field) \(quoted(value)) contains a line break, which a quoted HLS attribute cannot carry"
            default: continue
            }
        }
        return nil
    }

    private static func characteristicProblem(_ characteristic: String) -> String? {
        if characteristic.isEmpty { return "characteristic is empty" }
        if let message = quotedStringProblem("characteristic", characteristic) { return message }
        // RFC 8216 §4.3.4.1: CHARACTERISTICS is one comma-separated list, so a comma would split the name.
        if characteristic.contains(",") {
            return "characteristic \(quoted(characteristic)) contains a comma; list each characteristic separately"
        }
        if knownCharacteristics.contains(characteristic) || isReverseDNSName(characteristic) { return nil }
        return "characteristic \(quoted(characteristic)) is neither a known characteristic nor a reverse-DNS name such as com.example.name"
    }

    /// `label.label[.label...]`, labels of ASCII letters, digits and hyphens (a Uniform Type Identifier's shape).
    static func isReverseDNSName(_ name: String) -> Bool {
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.utf8.allSatisfy { isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "-") }
        }
    }

    /// Whether `tag` has the shape of an RFC 5646 §2.1 language tag (the registry itself is not consulted).
    public static func isLanguageTag(_ tag: String) -> Bool {
        let lowered = asciiLowercased(tag)
        if irregularGrandfatheredTags.contains(lowered) { return true }
        let subtags = lowered.split(separator: "-", omittingEmptySubsequences: false).map { Array($0.utf8) }
        guard let first = subtags.first, subtags.allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy(isASCIIAlphanumeric) })
        else { return false }
        if first == [UInt8(ascii: "x")] { return isPrivateUse(subtags[1...]) }
        return isLangtag(subtags)
    }

    /// langtag = language ["-" script] ["-" region] *("-" variant) *("-" extension) ["-" privateuse].
    private static func isLangtag(_ subtags: [[UInt8]]) -> Bool {
        var rest = subtags[...]
        guard let language = rest.popFirst(), language.allSatisfy(isASCIILetter), (2...8).contains(language.count) else {
            return false
        }
        // Up to three extlang subtags follow a 2-3 letter language.
        if language.count <= 3 {
            var extlangs = 0
            while extlangs < 3, let next = rest.first, next.count == 3, next.allSatisfy(isASCIILetter) {
                rest.removeFirst()
                extlangs += 1
            }
        }
        if let script = rest.first, script.count == 4, script.allSatisfy(isASCIILetter) { rest.removeFirst() }
        if let region = rest.first,
            (region.count == 2 && region.allSatisfy(isASCIILetter)) || (region.count == 3 && region.allSatisfy(isASCIIDigit))
        {
            rest.removeFirst()
        }
        while let variant = rest.first,
            (5...8).contains(variant.count) || (variant.count == 4 && isASCIIDigit(variant[0]))
        {
            rest.removeFirst()
        }
        while let singleton = rest.first, singleton.count == 1, singleton != [UInt8(ascii: "x")] {
            rest.removeFirst()
            var extensionSubtags = 0
            while let next = rest.first, next.count >= 2 {
                rest.removeFirst()
                extensionSubtags += 1
            }
            if extensionSubtags == 0 { return false }
        }
        if let singleton = rest.first, singleton == [UInt8(ascii: "x")] {
            return isPrivateUse(rest.dropFirst())
        }
        return rest.isEmpty
    }

    /// privateuse = "x" 1*("-" (1*8alphanum)); the subtags were already checked for length and characters.
    private static func isPrivateUse(_ subtags: ArraySlice<[UInt8]>) -> Bool { !subtags.isEmpty }

    /// RFC 5646 §2.2.8: tags that predate the grammar and do not fit it.
    private static let irregularGrandfatheredTags: Set<String> = [
        "en-gb-oed", "i-ami", "i-bnn", "i-default", "i-enochian", "i-hak", "i-klingon", "i-lux", "i-mingo",
        "i-navajo", "i-pwn", "i-tao", "i-tay", "i-tsu", "sgn-be-fr", "sgn-be-nl", "sgn-ch-de",
    ]

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isASCIIDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool { isASCIILetter(byte) || isASCIIDigit(byte) }

    private static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { isASCIILetter($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The value in double quotes, escaped for a message (see `DisplayQuoting`).
    static func quoted(_ value: String) -> String {
        DisplayQuoting.quoted(value)
    }
}
