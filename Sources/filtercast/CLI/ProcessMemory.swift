internal import CMalloc
import Logging

/// How `serve` hands the memory of large blocks back to the system (issue 37.6).
///
/// glibc gives a block of at least its mmap threshold (128 KiB at first) a mapping of its own,
/// unmapped when freed — but each such block freed raises the threshold to its size (up to
/// 32 MiB). After the first networks and frames are freed, 720p frames (1.4 MB), the encoders'
/// copies of them and OpenVINO's buffers all come from the threads' arenas (up to 8 a core),
/// where what is freed stays resident as long as something allocated after it lives: the frames
/// of a recording's queue filled in a busy second (up to 96 MB), the buffers of networks freed
/// when channels went. A fixed threshold (``largeBlock``) gives every large block a mapping of
/// its own again, whenever it comes.
///
/// Measured (release build, styled channels of 8 shapes added, watched and removed one at a time,
/// three rounds, the network at 144 lines): RSS 245–262 MB over the second and third rounds with
/// glibc's moving threshold, 166–186 MB with 512 KiB. The cost is a mapping per large block: a
/// test pattern's packet and each H.264 encoder's copy of a frame are one a frame (~35 a second
/// at 720p30 with a recording), where the moving threshold made as many `madvise` calls trimming
/// the arenas instead.
enum ProcessMemory {
    /// Blocks of this size or more get a mapping of their own: a 720p frame does, a 360p one
    /// (338 KiB) and smaller stay in the arenas.
    static let largeBlock = 512 * 1024

    /// Fixes glibc's mmap threshold at ``largeBlock`` (which also stops it moving the trim
    /// threshold) for the whole process. Said when the allocator refuses (AddressSanitizer's does).
    static func returnLargeBlocks() {
        if mallopt(M_MMAP_THRESHOLD, Int32(largeBlock)) != 1 {
            Log.warning("memory: the allocator refused an mmap threshold of \(largeBlock) bytes (not glibc's?): "
                        + "freed frames may stay resident")
        }
    }

    /// Whether `block` (from malloc) has a mapping of its own: such a block spans whole pages,
    /// less glibc's 16-byte header.
    static func isMapped(_ block: UnsafeMutableRawPointer) -> Bool {
        (malloc_usable_size(block) + 16) % 4096 == 0
    }
}
