//! NumPy's `.npz`: a zip archive of `.npy` arrays, stored (not
//! compressed), written in one pass with the checksums computed before
//! each entry's header. No zip64: an archive stays under 4 GiB.

use super::layout::Dtype;
use std::io::{self, Write};

/// One `.npz` being written to `W`.
pub(super) struct NpzWriter<W: Write> {
    out: W,
    offset: u64,
    /// Each entry's name, checksum, size and header offset.
    entries: Vec<(String, u32, u32, u32)>,
}

fn too_large() -> io::Error {
    io::Error::other("shard over 4 GiB: lower --shard-size")
}

impl<W: Write> NpzWriter<W> {
    pub(super) fn new(out: W) -> NpzWriter<W> {
        NpzWriter {
            out,
            offset: 0,
            entries: Vec::new(),
        }
    }

    /// Writes `data` as the array `name` (`name.npy` in the archive) of
    /// type `dtype` and shape `shape`, C order.
    pub(super) fn array(
        &mut self,
        name: &str,
        dtype: Dtype,
        shape: &[usize],
        data: &[u8],
    ) -> io::Result<()> {
        debug_assert_eq!(shape.iter().product::<usize>() * dtype.size(), data.len());
        let header = npy_header(dtype, shape);
        let mut crc = crc32fast::Hasher::new();
        crc.update(&header);
        crc.update(data);
        let crc = crc.finalize();
        let size = u32::try_from(header.len() + data.len()).map_err(|_| too_large())?;
        let file = format!("{name}.npy");
        let at = u32::try_from(self.offset).map_err(|_| too_large())?;
        let mut local = Vec::with_capacity(30 + file.len());
        local.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        local.extend_from_slice(&20u16.to_le_bytes()); // version needed
        local.extend_from_slice(&0u16.to_le_bytes()); // flags
        local.extend_from_slice(&0u16.to_le_bytes()); // stored
        local.extend_from_slice(&0u16.to_le_bytes()); // time 00:00
        local.extend_from_slice(&0x21u16.to_le_bytes()); // date 1980-01-01
        local.extend_from_slice(&crc.to_le_bytes());
        local.extend_from_slice(&size.to_le_bytes());
        local.extend_from_slice(&size.to_le_bytes());
        local.extend_from_slice(&(file.len() as u16).to_le_bytes());
        local.extend_from_slice(&0u16.to_le_bytes()); // extra
        local.extend_from_slice(file.as_bytes());
        self.out.write_all(&local)?;
        self.out.write_all(&header)?;
        self.out.write_all(data)?;
        self.offset += (local.len() + header.len() + data.len()) as u64;
        self.entries.push((file, crc, size, at));
        Ok(())
    }

    /// Writes the central directory; returns the writer and the bytes
    /// written.
    pub(super) fn finish(mut self) -> io::Result<(W, u64)> {
        let start = u32::try_from(self.offset).map_err(|_| too_large())?;
        let mut dir = Vec::new();
        for (name, crc, size, at) in &self.entries {
            dir.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
            dir.extend_from_slice(&20u16.to_le_bytes()); // made by
            dir.extend_from_slice(&20u16.to_le_bytes()); // needed
            dir.extend_from_slice(&0u16.to_le_bytes()); // flags
            dir.extend_from_slice(&0u16.to_le_bytes()); // stored
            dir.extend_from_slice(&0u16.to_le_bytes());
            dir.extend_from_slice(&0x21u16.to_le_bytes());
            dir.extend_from_slice(&crc.to_le_bytes());
            dir.extend_from_slice(&size.to_le_bytes());
            dir.extend_from_slice(&size.to_le_bytes());
            dir.extend_from_slice(&(name.len() as u16).to_le_bytes());
            dir.extend_from_slice(&[0; 8]); // extra, comment, disk, internal attributes
            dir.extend_from_slice(&0u32.to_le_bytes()); // external attributes
            dir.extend_from_slice(&at.to_le_bytes());
            dir.extend_from_slice(name.as_bytes());
        }
        let n = self.entries.len() as u16;
        let mut end = Vec::with_capacity(22);
        end.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
        end.extend_from_slice(&[0; 4]); // disk numbers
        end.extend_from_slice(&n.to_le_bytes());
        end.extend_from_slice(&n.to_le_bytes());
        end.extend_from_slice(&(dir.len() as u32).to_le_bytes());
        end.extend_from_slice(&start.to_le_bytes());
        end.extend_from_slice(&0u16.to_le_bytes()); // comment
        self.out.write_all(&dir)?;
        self.out.write_all(&end)?;
        self.out.flush()?;
        let total = self.offset + (dir.len() + end.len()) as u64;
        Ok((self.out, total))
    }
}

/// An `.npy` version 1.0 header: magic, length, the dictionary padded
/// with spaces to a multiple of 64 bytes, a line feed last.
fn npy_header(dtype: Dtype, shape: &[usize]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
    let shape = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    let dict = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}",
        dtype.numpy()
    );
    let unpadded = 10 + dict.len() + 1;
    let total = unpadded.div_ceil(64) * 64;
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&((total - 10) as u16).to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out.resize(total - 1, b' ');
    out.push(b'\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_aligned_and_say_the_shape() {
        let h = npy_header(Dtype::I16, &[3]);
        assert_eq!(h.len() % 64, 0);
        assert!(h.ends_with(b"\n"));
        let text = String::from_utf8_lossy(&h[10..]);
        assert!(text.starts_with("{'descr': '<i2', 'fortran_order': False, 'shape': (3,), }"));
        let h = npy_header(Dtype::U8, &[2, 17, 46]);
        assert!(String::from_utf8_lossy(&h).contains("'shape': (2, 17, 46)"));
    }

    #[test]
    fn the_archive_lists_its_entries() {
        let mut w = NpzWriter::new(Vec::new());
        w.array("a", Dtype::U8, &[3], &[1, 2, 3]).unwrap();
        w.array("b", Dtype::I16, &[2], &[1, 0, 2, 0]).unwrap();
        let (bytes, n) = w.finish().unwrap();
        assert_eq!(n as usize, bytes.len());
        // The end record: two entries, the directory right after the data.
        let end = &bytes[bytes.len() - 22..];
        assert_eq!(&end[..4], &0x0605_4b50u32.to_le_bytes());
        assert_eq!(u16::from_le_bytes([end[10], end[11]]), 2);
        let dir_at = u32::from_le_bytes(end[16..20].try_into().unwrap()) as usize;
        assert_eq!(&bytes[dir_at..dir_at + 4], &0x0201_4b50u32.to_le_bytes());
        // The first entry's data is the header then the three bytes.
        let name_len = u16::from_le_bytes([bytes[26], bytes[27]]) as usize;
        assert_eq!(&bytes[30..30 + name_len], b"a.npy");
        let data = &bytes[30 + name_len..];
        let header = 10 + usize::from(u16::from_le_bytes([data[8], data[9]]));
        assert_eq!(header % 64, 0);
        assert_eq!(&data[header..header + 3], &[1, 2, 3]);
        let crc = u32::from_le_bytes(bytes[14..18].try_into().unwrap());
        assert_eq!(crc, crc32fast::hash(&data[..header + 3]));
    }
}
