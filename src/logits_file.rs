//! One step's logits as files: a 1-D float32 `.npy` (what numpy and torch users save, and what
//! [`to_npy`] writes) or a JSON array of numbers. Whether they can be inspected (empty, NaN, +inf) is the core's to say
//! (`Inspection::new`).

use crate::text::{Explain, Said};
use sampling_lab_core::Message;

/// Why bytes are not one step's logits: a sentence of the catalogs (`logits-file-*`), in English
/// when shown as text.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{}", crate::text::render(.0, sampling_lab_core::Lang::En))]
pub struct LogitsFileError(pub Message);

impl Explain for LogitsFileError {
    fn said(&self) -> Said {
        Said::Message(self.0.clone())
    }
}

/// Not logits, as message `id` says.
fn refuse(id: &'static str) -> LogitsFileError {
    LogitsFileError(Message::new(id))
}

/// Parses `bytes` as `.npy` when they start with the npy magic, as JSON otherwise.
pub fn parse_logits(bytes: &[u8]) -> Result<Vec<f32>, LogitsFileError> {
    if bytes.starts_with(b"\x93NUMPY") {
        parse_npy(bytes)
    } else {
        let values: Vec<f64> =
            serde_json::from_slice(bytes).map_err(|e| LogitsFileError(Message::json("logits-file-neither", &e)))?;
        Ok(values.into_iter().map(|v| v as f32).collect())
    }
}

/// `values` as a 1-D float32 `.npy` (version 1.0), bit for bit: what `parse_logits` reads back.
pub fn to_npy(values: &[f32]) -> Vec<u8> {
    let header = format!(
        "{{'descr': '<f4', 'fortran_order': False, 'shape': ({},), }}",
        values.len()
    );
    // The magic, version and length take 10 bytes; the header pads the data to 64-byte alignment.
    let padded = (10 + header.len() + 1).div_ceil(64) * 64 - 10;
    let header = format!("{header:<width$}\n", width = padded - 1);
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend((header.len() as u16).to_le_bytes());
    bytes.extend(header.as_bytes());
    bytes.extend(values.iter().flat_map(|v| v.to_le_bytes()));
    bytes
}

fn parse_npy(bytes: &[u8]) -> Result<Vec<f32>, LogitsFileError> {
    let truncated = || refuse("logits-file-npy-truncated");
    let major = *bytes.get(6).ok_or_else(truncated)?;
    let (header_len, start) = match major {
        1 => (
            u16::from_le_bytes(le_bytes(bytes, 8).ok_or_else(truncated)?) as usize,
            10usize,
        ),
        2 | 3 => (
            u32::from_le_bytes(le_bytes(bytes, 8).ok_or_else(truncated)?) as usize,
            12,
        ),
        v => {
            return Err(LogitsFileError(
                Message::new("logits-file-npy-version").verbatim("version", v.to_string()),
            ))
        }
    };
    // A claimed length past the file is a truncated file, also where adding it would overflow.
    let data_start = start.checked_add(header_len).ok_or_else(truncated)?;
    let header = std::str::from_utf8(bytes.get(start..data_start).ok_or_else(truncated)?)
        .map_err(|_| refuse("logits-file-npy-header-text"))?;
    let descr = header_value(header, "descr").ok_or_else(|| refuse("logits-file-npy-no-descr"))?;
    if descr != "'<f4'" {
        return Err(LogitsFileError(
            Message::new("logits-file-npy-dtype").verbatim("descr", descr),
        ));
    }
    if header_value(header, "fortran_order") != Some("False") {
        return Err(refuse("logits-file-npy-fortran"));
    }
    let shape = header_value(header, "shape").ok_or_else(|| refuse("logits-file-npy-no-shape"))?;
    let with_shape = |id| LogitsFileError(Message::new(id).verbatim("shape", shape));
    let dims: Vec<usize> = shape
        .trim_matches(|c| c == '(' || c == ')')
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().parse().map_err(|_| with_shape("logits-file-npy-shape")))
        .collect::<Result<_, _>>()?;
    let [len] = dims[..] else {
        return Err(with_shape("logits-file-npy-not-1d"));
    };
    let data = &bytes[data_start..];
    if len.checked_mul(4) != Some(data.len()) {
        return Err(LogitsFileError(
            Message::new("logits-file-npy-size")
                .verbatim("bytes", data.len().to_string())
                .verbatim("shape", shape)
                .verbatim("len", len.to_string()),
        ));
    }
    Ok(data
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect())
}

/// `N` bytes at `at`, for a little-endian integer, or `None` past the end.
fn le_bytes<const N: usize>(bytes: &[u8], at: usize) -> Option<[u8; N]> {
    bytes.get(at..at.checked_add(N)?)?.try_into().ok()
}

/// The value text of `'key': value` in an npy header dict (tuples kept whole).
fn header_value<'a>(header: &'a str, key: &str) -> Option<&'a str> {
    let rest = &header[header.find(&format!("'{key}'"))? + key.len() + 2..];
    let rest = rest.trim_start().strip_prefix(':')?.trim_start();
    let end = if rest.starts_with('(') {
        rest.find(')')? + 1
    } else {
        rest.find([',', '}'])?
    };
    Some(rest[..end].trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
        let header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}\n");
        let mut out = b"\x93NUMPY\x01\x00".to_vec();
        out.extend_from_slice(&(header.len() as u16).to_le_bytes());
        out.extend_from_slice(header.as_bytes());
        out.extend_from_slice(data);
        out
    }

    #[test]
    fn reads_a_one_dimensional_float32_npy() {
        let data: Vec<u8> = [1.5f32, -2.0].iter().flat_map(|x| x.to_le_bytes()).collect();
        assert_eq!(parse_logits(&npy("<f4", "(2,)", &data)).unwrap(), vec![1.5, -2.0]);
    }

    #[test]
    fn refuses_a_two_dimensional_npy_by_its_shape() {
        let err = parse_logits(&npy("<f4", "(1, 2)", &[0; 8])).unwrap_err();
        assert!(err.to_string().contains("1-D"), "{err}");
    }

    #[test]
    fn refuses_float64_by_name() {
        assert!(parse_logits(&npy("<f8", "(1,)", &[0; 8]))
            .unwrap_err()
            .to_string()
            .contains("<f8"));
    }

    #[test]
    fn reads_a_json_array() {
        assert_eq!(parse_logits(b"[3, 2, 2, 1]").unwrap(), vec![3.0, 2.0, 2.0, 1.0]);
    }

    #[test]
    fn every_truncation_of_an_npy_is_an_error_not_a_panic() {
        let data: Vec<u8> = [1.5f32, -2.0].iter().flat_map(|x| x.to_le_bytes()).collect();
        let whole = npy("<f4", "(2,)", &data);
        for cut in 0..whole.len() {
            assert!(parse_logits(&whole[..cut]).is_err(), "{cut} bytes");
        }
        for version in [1u8, 2, 3] {
            for len in 6..=12 {
                let mut short = b"\x93NUMPY".to_vec();
                short.extend_from_slice(&[version, 0, 0xff, 0xff, 0xff, 0xff][..len - 6]);
                assert!(parse_logits(&short).is_err(), "version {version}, {len} bytes");
            }
        }
    }

    #[test]
    fn a_shape_whose_byte_count_overflows_is_refused() {
        let err = parse_logits(&npy("<f4", "(4611686018427387905,)", &[0; 4])).unwrap_err();
        assert!(err.to_string().contains("needs"), "{err}");
    }
}
