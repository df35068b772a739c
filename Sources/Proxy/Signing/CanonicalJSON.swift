/// The compact JSON the signers write (docs/signing.md): no whitespace, object keys sorted by their
/// UTF-8 bytes, strings as UTF-8 with only `"`, `\` and controls escaped. It is what Python's
/// `json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)` writes, so
/// tools/sign.py and this code make the same bytes. The verifier never re-encodes: the MAC is over the
/// bytes as sent, whatever their spelling.
enum CanonicalJSON {
    static func bytes(_ value: ConfigValue) -> [UInt8] {
        var out: [UInt8] = []
        write(value, to: &out)
        return out
    }

    private static func write(_ value: ConfigValue, to out: inout [UInt8]) {
        switch value {
        case .null: out += Array("null".utf8)
        case .bool(let flag): out += Array((flag ? "true" : "false").utf8)
        case .integer(let number): out += Array(String(number).utf8)
        case .number(let number): out += Array((number.isFinite ? String(number) : "null").utf8)
        case .string(let text): writeString(text, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            let keys = members.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            for (index, key) in keys.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                if let member = members[key] { write(member, to: &out) }
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ text: String, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x00..<0x20: out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
