/// Language tags as playlists and streams write them: an HLS LANGUAGE is an
/// RFC 5646 tag ("de", "en-GB"), an MPEG-TS audio stream carries ISO 639-2
/// ("deu", or the bibliographic "ger"). `matches` tells whether two name
/// the same language, so a rendition chosen in the playlist finds its
/// muxed stream.
public enum LanguageCode {
    /// ISO 639-1 → ISO 639-2/T for the languages a TV lineup commonly carries.
    static let terminology: [String: String] = [
        "ar": "ara", "bg": "bul", "ca": "cat", "cs": "ces", "cy": "cym", "da": "dan", "de": "deu", "el": "ell",
        "en": "eng", "es": "spa", "et": "est", "eu": "eus", "fa": "fas", "fi": "fin", "fr": "fra", "ga": "gle",
        "he": "heb", "hi": "hin", "hr": "hrv", "hu": "hun", "hy": "hye", "id": "ind", "is": "isl", "it": "ita",
        "ja": "jpn", "ka": "kat", "ko": "kor", "lt": "lit", "lv": "lav", "mk": "mkd", "ms": "msa", "mt": "mlt",
        "nl": "nld", "no": "nor", "nb": "nob", "nn": "nno", "pl": "pol", "pt": "por", "ro": "ron", "ru": "rus",
        "sk": "slk", "sl": "slv", "sq": "sqi", "sr": "srp", "sv": "swe", "th": "tha", "tr": "tur", "uk": "ukr",
        "ur": "urd", "vi": "vie", "zh": "zho",
    ]

    /// ISO 639-2/B codes that differ from their /T twins.
    static let bibliographic: [String: String] = [
        "alb": "sqi", "arm": "hye", "baq": "eus", "chi": "zho", "cze": "ces", "dut": "nld", "fre": "fra",
        "geo": "kat", "ger": "deu", "gre": "ell", "ice": "isl", "mac": "mkd", "may": "msa", "per": "fas",
        "rum": "ron", "slo": "slk", "wel": "cym",
    ]

    /// The ISO 639-2/T code of a tag, lowercased ("de-AT" → "deu", "ger" → "deu");
    /// an unknown tag's primary subtag, lowercased.
    public static func normalized(_ tag: String) -> String {
        let primary = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        if let code = terminology[primary] { return code }
        if let code = bibliographic[primary] { return code }
        return primary
    }

    /// Whether two tags name the same language; "und", "mis", "zxx" and empty tags match nothing.
    public static func matches(_ a: String, _ b: String) -> Bool {
        let left = normalized(a)
        let right = normalized(b)
        guard !left.isEmpty, !["und", "mis", "zxx", "mul"].contains(left) else { return false }
        return left == right
    }

    /// The language's own name for a tag (endonym: "deu" → "Deutsch"), for the languages a
    /// lineup commonly carries; nil for others.
    public static func name(_ tag: String) -> String? { names[normalized(tag)] }

    static let names: [String: String] = [
        "eng": "English", "deu": "Deutsch", "fra": "Français", "spa": "Español", "ita": "Italiano",
        "nld": "Nederlands", "por": "Português", "swe": "Svenska", "dan": "Dansk", "nor": "Norsk",
        "nob": "Norsk bokmål", "nno": "Norsk nynorsk", "fin": "Suomi", "pol": "Polski", "ces": "Čeština",
        "slk": "Slovenčina", "hun": "Magyar", "ron": "Română", "bul": "Български", "ell": "Ελληνικά",
        "rus": "Русский", "ukr": "Українська", "tur": "Türkçe", "ara": "العربية", "heb": "עברית",
        "hin": "हिन्दी", "jpn": "日本語", "kor": "한국어", "zho": "中文", "cat": "Català", "eus": "Euskara",
        "gle": "Gaeilge", "cym": "Cymraeg", "hrv": "Hrvatski", "srp": "Српски", "slv": "Slovenščina",
        "lit": "Lietuvių", "lav": "Latviešu", "est": "Eesti", "isl": "Íslenska", "tha": "ไทย", "vie": "Tiếng Việt",
        "fas": "فارسی", "urd": "اردو", "ind": "Bahasa Indonesia", "msa": "Bahasa Melayu",
    ]
}
