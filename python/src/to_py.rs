//! A report (anything `Serialize`) as Python objects, directly: dicts,
//! lists, ints (u128 counts whole), floats, strings, None. No JSON text
//! on the way; the keys and values are the ones `--format json` writes.

use pyo3::IntoPyObjectExt;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde::ser::{self, Serialize};

/// `value` as Python objects.
pub fn to_py<'py, T: Serialize + ?Sized>(
    py: Python<'py>,
    value: &T,
) -> PyResult<Bound<'py, PyAny>> {
    value
        .serialize(Ser { py })
        .map_err(|e| PyValueError::new_err(e.0))
}

#[derive(Debug)]
pub struct Error(String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<M: std::fmt::Display>(msg: M) -> Self {
        Error(msg.to_string())
    }
}

impl From<PyErr> for Error {
    fn from(e: PyErr) -> Self {
        Error(e.to_string())
    }
}

type Out<'py> = Result<Bound<'py, PyAny>, Error>;

#[derive(Clone, Copy)]
struct Ser<'py> {
    py: Python<'py>,
}

impl<'py> Ser<'py> {
    fn object<T: IntoPyObject<'py>>(self, v: T) -> Out<'py> {
        v.into_bound_py_any(self.py).map_err(Error::from)
    }
}

/// A list being filled (sequences, tuples).
struct Seq<'py> {
    ser: Ser<'py>,
    items: Vec<Bound<'py, PyAny>>,
}

/// A dict being filled (maps, structs); `key` waits for its value.
struct Map<'py> {
    ser: Ser<'py>,
    dict: Bound<'py, PyDict>,
    key: Option<Bound<'py, PyAny>>,
}

/// An enum's variant with content: `{variant: content}`, as serde_json.
struct Variant<C> {
    name: &'static str,
    content: C,
}

impl<'py> ser::Serializer for Ser<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    type SerializeSeq = Seq<'py>;
    type SerializeTuple = Seq<'py>;
    type SerializeTupleStruct = Seq<'py>;
    type SerializeTupleVariant = Variant<Seq<'py>>;
    type SerializeMap = Map<'py>;
    type SerializeStruct = Map<'py>;
    type SerializeStructVariant = Variant<Map<'py>>;

    fn serialize_bool(self, v: bool) -> Out<'py> {
        self.object(v)
    }
    fn serialize_i8(self, v: i8) -> Out<'py> {
        self.object(v)
    }
    fn serialize_i16(self, v: i16) -> Out<'py> {
        self.object(v)
    }
    fn serialize_i32(self, v: i32) -> Out<'py> {
        self.object(v)
    }
    fn serialize_i64(self, v: i64) -> Out<'py> {
        self.object(v)
    }
    fn serialize_i128(self, v: i128) -> Out<'py> {
        self.object(v)
    }
    fn serialize_u8(self, v: u8) -> Out<'py> {
        self.object(v)
    }
    fn serialize_u16(self, v: u16) -> Out<'py> {
        self.object(v)
    }
    fn serialize_u32(self, v: u32) -> Out<'py> {
        self.object(v)
    }
    fn serialize_u64(self, v: u64) -> Out<'py> {
        self.object(v)
    }
    fn serialize_u128(self, v: u128) -> Out<'py> {
        self.object(v)
    }
    fn serialize_f32(self, v: f32) -> Out<'py> {
        self.serialize_f64(v.into())
    }
    fn serialize_f64(self, v: f64) -> Out<'py> {
        // As serde_json: a number that is not finite is null.
        if v.is_finite() {
            self.object(v)
        } else {
            self.serialize_none()
        }
    }
    fn serialize_char(self, v: char) -> Out<'py> {
        self.object(v.to_string())
    }
    fn serialize_str(self, v: &str) -> Out<'py> {
        self.object(v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Out<'py> {
        self.object(v.to_vec())
    }
    fn serialize_none(self) -> Out<'py> {
        Ok(self.py.None().into_bound(self.py))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Out<'py> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Out<'py> {
        self.serialize_none()
    }
    fn serialize_unit_struct(self, _: &'static str) -> Out<'py> {
        self.serialize_none()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Out<'py> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Out<'py> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Out<'py> {
        let dict = PyDict::new(self.py);
        dict.set_item(variant, value.serialize(self)?)?;
        Ok(dict.into_any())
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Seq<'py>, Error> {
        Ok(Seq {
            ser: self,
            items: Vec::with_capacity(len.unwrap_or(0)),
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Seq<'py>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Seq<'py>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        name: &'static str,
        len: usize,
    ) -> Result<Variant<Seq<'py>>, Error> {
        Ok(Variant {
            name,
            content: self.serialize_seq(Some(len))?,
        })
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Map<'py>, Error> {
        Ok(Map {
            ser: self,
            dict: PyDict::new(self.py),
            key: None,
        })
    }
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Map<'py>, Error> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        name: &'static str,
        len: usize,
    ) -> Result<Variant<Map<'py>>, Error> {
        Ok(Variant {
            name,
            content: self.serialize_map(Some(len))?,
        })
    }
}

impl<'py> Seq<'py> {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.items.push(value.serialize(self.ser)?);
        Ok(())
    }
    fn done(self) -> Out<'py> {
        Ok(PyList::new(self.ser.py, self.items)?.into_any())
    }
}

impl<'py> ser::SerializeSeq for Seq<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.push(value)
    }
    fn end(self) -> Out<'py> {
        self.done()
    }
}

impl<'py> ser::SerializeTuple for Seq<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.push(value)
    }
    fn end(self) -> Out<'py> {
        self.done()
    }
}

impl<'py> ser::SerializeTupleStruct for Seq<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.push(value)
    }
    fn end(self) -> Out<'py> {
        self.done()
    }
}

impl<'py> Map<'py> {
    fn entry<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), Error> {
        self.dict.set_item(key, value.serialize(self.ser)?)?;
        Ok(())
    }
}

impl<'py> ser::SerializeMap for Map<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.key = Some(key.serialize(self.ser)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let key = self
            .key
            .take()
            .ok_or_else(|| Error("a map value without its key".into()))?;
        self.dict.set_item(key, value.serialize(self.ser)?)?;
        Ok(())
    }
    fn end(self) -> Out<'py> {
        Ok(self.dict.into_any())
    }
}

impl<'py> ser::SerializeStruct for Map<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.entry(key, value)
    }
    fn end(self) -> Out<'py> {
        Ok(self.dict.into_any())
    }
}

impl<'py> Variant<Seq<'py>> {
    fn wrap(self) -> Out<'py> {
        let py = self.content.ser.py;
        let dict = PyDict::new(py);
        dict.set_item(self.name, self.content.done()?)?;
        Ok(dict.into_any())
    }
}

impl<'py> ser::SerializeTupleVariant for Variant<Seq<'py>> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.content.push(value)
    }
    fn end(self) -> Out<'py> {
        self.wrap()
    }
}

impl<'py> ser::SerializeStructVariant for Variant<Map<'py>> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.content.entry(key, value)
    }
    fn end(self) -> Out<'py> {
        let py = self.content.ser.py;
        let dict = PyDict::new(py);
        dict.set_item(self.name, self.content.dict)?;
        Ok(dict.into_any())
    }
}
