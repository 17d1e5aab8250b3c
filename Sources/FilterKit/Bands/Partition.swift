/// How the parts of a pass (see ``PassFilter``) divide a frame: consecutive, disjoint ranges
/// that together cover it, as even as the alignment allows.
public enum Partition {
    /// The luma rows of part `part` of `parts`: bands starting on even rows, so each chroma row
    /// lies under one band (see ``chromaRows(under:)``).
    public static func rows(_ part: Int, of parts: Int, height: Int) -> Range<Int> {
        aligned(part, of: parts, length: height, alignment: 2)
    }

    /// The columns of part `part` of `parts`: bands starting on multiples of 64 samples, so parts
    /// writing the same rows never share a cache line. A narrow plane leaves some parts empty.
    public static func columns(_ part: Int, of parts: Int, width: Int) -> Range<Int> {
        aligned(part, of: parts, length: width, alignment: 64)
    }

    /// Items `0..<count` (rows of blocks, planes…) of part `part` of `parts`.
    public static func items(_ part: Int, of parts: Int, count: Int) -> Range<Int> {
        aligned(part, of: parts, length: count, alignment: 1)
    }

    /// The chroma rows of a 4:2:0 frame under luma rows `lumaRows` (which start on an even row).
    public static func chromaRows(under lumaRows: Range<Int>) -> Range<Int> {
        (lumaRows.lowerBound &+ 1) &>> 1..<(lumaRows.upperBound &+ 1) &>> 1
    }

    private static func aligned(_ part: Int, of parts: Int, length: Int, alignment: Int) -> Range<Int> {
        // Non-decreasing in i (the last boundary is `length`), so each range is well formed.
        func boundary(_ i: Int) -> Int { i >= parts ? length : length * i / parts / alignment * alignment }
        return boundary(part)..<boundary(part + 1)
    }
}
