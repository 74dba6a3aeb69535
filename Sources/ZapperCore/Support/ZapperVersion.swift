/// The release, as the User-Agent and `--version` say it.
public enum ZapperVersion {
    public static let current = "0.12.0"
}
