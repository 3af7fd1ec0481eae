//! Reading the emulator's MP4s in tests: their boxes, and a box by its type.

/// The boxes in `data` (type, payload), whose sizes must add up to its length.
pub fn boxes(data: &[u8]) -> Vec<([u8; 4], &[u8])> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < data.len() {
        let size = u32::from_be_bytes(data[i..i + 4].try_into().unwrap()) as usize;
        assert!(
            size >= 8 && i + size <= data.len(),
            "box size {size} at {i}"
        );
        out.push((
            data[i + 4..i + 8].try_into().unwrap(),
            &data[i + 8..i + size],
        ));
        i += size;
    }
    out
}

/// The payload of the first box of type `kind` in `data`.
pub fn find<'a>(data: &'a [u8], kind: &[u8; 4]) -> &'a [u8] {
    boxes(data)
        .into_iter()
        .find(|(k, _)| k == kind)
        .unwrap_or_else(|| panic!("no {} box", String::from_utf8_lossy(kind)))
        .1
}
