//! A call's keyword options, read as typed values: each keyword is the
//! command line option of the same name (`time_limit` is `--time-limit`),
//! its value a Python bool, int, float, str or list of them. `None` (and
//! `False` for a switch) is the option left out. A wrong type, a value out
//! of range or an option the call does not take is an [`InputError`]
//! naming the keyword.

use std::str::FromStr;
use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::InputError;

pub struct Keywords<'py> {
    /// What the call is, for messages: `solve`, `count`.
    call: &'static str,
    given: Vec<(String, Bound<'py, PyAny>)>,
}

impl<'py> Keywords<'py> {
    pub fn new(call: &'static str, options: Option<&Bound<'py, PyDict>>) -> PyResult<Self> {
        let mut given = Vec::new();
        if let Some(options) = options {
            for (k, v) in options.iter() {
                if !v.is_none() {
                    given.push((k.extract::<String>()?, v));
                }
            }
        }
        Ok(Keywords { call, given })
    }

    fn error(&self, name: &str, what: impl std::fmt::Display) -> PyErr {
        InputError::new_err(format!("{}: {name}: {what}", self.call))
    }

    /// The value of `name`, taken out (None: not given).
    pub fn take(&mut self, name: &str) -> Option<Bound<'py, PyAny>> {
        let k = self.given.iter().position(|(k, _)| k == name)?;
        Some(self.given.remove(k).1)
    }

    /// A switch: true when given as True.
    pub fn flag(&mut self, name: &str) -> PyResult<bool> {
        match self.take(name) {
            None => Ok(false),
            Some(v) => v
                .extract::<bool>()
                .map_err(|_| self.error(name, "expected True or False")),
        }
    }

    /// A whole number within `min..=max`.
    pub fn number(&mut self, name: &str, min: u64, max: u64) -> PyResult<Option<u64>> {
        let Some(v) = self.take(name) else {
            return Ok(None);
        };
        if v.is_instance_of::<pyo3::types::PyBool>() {
            return Err(self.error(name, "expected a whole number, not a bool"));
        }
        match v.extract::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(Some(n)),
            _ => Err(self.error(name, format!("expected a whole number from {min} to {max}"))),
        }
    }

    /// Seconds, at least zero.
    pub fn seconds(&mut self, name: &str) -> PyResult<Option<Duration>> {
        let Some(v) = self.take(name) else {
            return Ok(None);
        };
        let seconds = match v.extract::<f64>() {
            Ok(s) if !v.is_instance_of::<pyo3::types::PyBool>() => s,
            _ => return Err(self.error(name, "expected a number of seconds")),
        };
        Duration::try_from_secs_f64(seconds)
            .map(Some)
            .map_err(|_| self.error(name, "expected a finite number of seconds, at least 0"))
    }

    /// The texts given: one str, or a list or tuple of them (a repeated
    /// option); numbers are taken as their text.
    pub fn texts(&mut self, name: &str) -> PyResult<Vec<String>> {
        let Some(v) = self.take(name) else {
            return Ok(Vec::new());
        };
        let items: Vec<Bound<'py, PyAny>> =
            if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
                v.try_iter()?.collect::<PyResult<_>>()?
            } else {
                vec![v]
            };
        items
            .iter()
            .map(|item| {
                if item.is_instance_of::<pyo3::types::PyBool>() {
                    return Err(self.error(name, "expected text, not a bool"));
                }
                item.str().map(|s| s.to_string())
            })
            .collect()
    }

    /// One text (the last, if a list was given).
    pub fn text(&mut self, name: &str) -> PyResult<Option<String>> {
        Ok(self.texts(name)?.pop())
    }

    /// One value parsed from its text, as the command line parses it.
    pub fn parsed<T: FromStr>(&mut self, name: &str) -> PyResult<Option<T>>
    where
        T::Err: std::fmt::Display,
    {
        match self.text(name)? {
            None => Ok(None),
            Some(t) => t
                .parse()
                .map(Some)
                .map_err(|e| self.error(name, format!("{t:?}: {e}"))),
        }
    }

    /// One of a command line option's values (a clap value enum).
    pub fn choice<T: clap::ValueEnum>(&mut self, name: &str) -> PyResult<Option<T>> {
        match self.text(name)? {
            None => Ok(None),
            Some(t) => T::from_str(&t, false).map(Some).map_err(|_| {
                let names: Vec<String> = T::value_variants()
                    .iter()
                    .filter_map(|v| v.to_possible_value().map(|p| p.get_name().to_string()))
                    .collect();
                self.error(name, format!("{t:?} is not one of {}", names.join(", ")))
            }),
        }
    }

    /// The keywords left, taken out: (name, texts) pairs, a bool as
    /// `true` or `false` (a switch).
    pub fn rest(&mut self) -> PyResult<Vec<(String, Vec<String>)>> {
        let names: Vec<String> = self.given.iter().map(|(k, _)| k.clone()).collect();
        names
            .into_iter()
            .map(|k| {
                let switch = self.given.iter().find(|(n, _)| *n == k).and_then(|(_, v)| {
                    v.is_instance_of::<pyo3::types::PyBool>()
                        .then(|| v.is_truthy().map(|b| b.to_string()))
                });
                let v = match switch {
                    Some(text) => {
                        self.take(&k);
                        vec![text?]
                    }
                    None => self.texts(&k)?,
                };
                Ok((k, v))
            })
            .collect()
    }

    /// Refuse what is left: options the call does not take.
    pub fn finish(self) -> PyResult<()> {
        match self.given.first() {
            None => Ok(()),
            Some((name, _)) => Err(self.error(name, "no such option here")),
        }
    }
}
