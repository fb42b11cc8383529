//! Unsigned LEB128 varints, as used by the RLE/bit-packed hybrid run headers.
//!
//! <https://github.com/apache/parquet-format/blob/master/Encodings.md#run-length-encoding--bit-packing-hybrid-rle--3>
//! refers to ULEB-128 for `bit-packed-header` and `rle-header`.

use crate::error::DecodeError;

/// Decodes one ULEB128 value from the front of `data`.
///
/// Returns the value and the number of bytes it used. Unlike decoders that
/// `panic!` on an over-long varint, a value that does not fit in `u64` (more than
/// ten bytes, or bits beyond the 64th) is an error: the bytes are untrusted.
pub(crate) fn decode(data: &[u8]) -> Result<(u64, usize), DecodeError> {
    let mut value: u64 = 0;
    for (i, &byte) in data.iter().enumerate().take(10) {
        let payload = u64::from(byte & 0x7f);
        let shift = 7 * i as u32;
        // The tenth byte may only carry the 64th bit.
        if i == 9 && payload > 1 {
            return Err(DecodeError::oos("varint does not fit in 64 bits"));
        }
        value |= payload << shift;
        if byte & 0x80 == 0 {
            return Ok((value, i + 1));
        }
    }
    if data.len() >= 10 {
        Err(DecodeError::oos("varint longer than 10 bytes"))
    } else {
        Err(DecodeError::oos("varint runs past the end of the page"))
    }
}

#[cfg(test)]
pub(crate) fn encode(mut value: u64, out: &mut Vec<u8>) {
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_examples() {
        // 1 = 0b0000_0001; 300 = 0b1_0010_1100 -> 0xac 0x02
        assert_eq!(decode(&[0x01]).unwrap(), (1, 1));
        assert_eq!(decode(&[0xac, 0x02, 0xff]).unwrap(), (300, 2));
    }

    #[test]
    fn round_trip() {
        for v in [
            0,
            1,
            127,
            128,
            16_383,
            16_384,
            u64::from(u32::MAX),
            u64::MAX,
        ] {
            let mut buf = Vec::new();
            encode(v, &mut buf);
            assert_eq!(decode(&buf).unwrap(), (v, buf.len()));
        }
    }

    #[test]
    fn malformed() {
        assert!(decode(&[]).is_err());
        assert!(decode(&[0x80]).is_err());
        assert!(decode(&[0xff; 11]).is_err());
        // Ten bytes whose last carries more than the 64th bit.
        let mut too_big = vec![0xff; 9];
        too_big.push(0x02);
        assert!(decode(&too_big).is_err());
    }
}
