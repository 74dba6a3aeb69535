extension Array {
    /// The element at `index`, nil outside the array.
    public subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
