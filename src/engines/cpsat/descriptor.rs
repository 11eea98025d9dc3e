//! The schema of CP-SAT's models (ortools/sat/cp_model.proto) as the loaded
//! library holds it: protobuf's generated code keeps every `.proto` file's
//! serialized `FileDescriptorProto` in an exported table. `--constraints`
//! files are read with it (src/engines/cpsat/constraints.rs), so they are checked
//! against exactly the release that solves them.

use std::ffi::c_int;

/// The protobuf runtime's table of a generated `.proto` file, as the
/// protobuf release inside OR-Tools 9.15 lays it out
/// (`google::protobuf::internal::DescriptorTable`): its first fields.
#[repr(C)]
struct DescriptorTable {
    is_initialized: bool,
    is_eager: bool,
    size: c_int,
    descriptor: *const std::ffi::c_char,
    filename: *const std::ffi::c_char,
}

/// The exported table of cp_model.proto.
const CP_MODEL_TABLE: &str = "descriptor_table_ortools_2fsat_2fcp_5fmodel_2eproto";
/// The file name that table must carry.
const CP_MODEL_FILE: &[u8] = b"ortools/sat/cp_model.proto";

/// Copy the serialized descriptor of cp_model.proto out of `lib`.
pub(super) fn cp_model_descriptor(lib: &libloading::Library) -> Result<Vec<u8>, String> {
    // SAFETY: the symbol is the `DescriptorTable` that protobuf's generated
    // code defines for cp_model.proto, a constant initialized before the
    // library's loader returns; its first fields are laid out as
    // `DescriptorTable` above in the pinned release (the version is checked
    // before this is called). Only its address is taken here.
    let table = unsafe { lib.get::<*const DescriptorTable>(CP_MODEL_TABLE.as_bytes()) }
        .map_err(|e| format!("missing {CP_MODEL_TABLE}: {e}"))?;
    let table: *const DescriptorTable = *table;
    if table.is_null() {
        return Err(format!("{CP_MODEL_TABLE} is null"));
    }
    // SAFETY: `table` points at the table above, alive while `lib` is
    // loaded; its fields are read, not written.
    let (size, descriptor, filename) =
        unsafe { ((*table).size, (*table).descriptor, (*table).filename) };
    if !(1..=1 << 20).contains(&size) || descriptor.is_null() || filename.is_null() {
        return Err(format!(
            "{CP_MODEL_TABLE} does not look like a descriptor table"
        ));
    }
    // SAFETY: `filename` is the NUL-terminated name of the table's file, a
    // string constant of the library (checked non-null above).
    let name = unsafe { std::ffi::CStr::from_ptr(filename) };
    if name.to_bytes() != CP_MODEL_FILE {
        return Err(format!(
            "{CP_MODEL_TABLE} names {:?}, not cp_model.proto",
            name.to_string_lossy()
        ));
    }
    // SAFETY: `descriptor` points at `size` bytes of the serialized
    // descriptor, a constant of the library (size checked above); they are
    // copied out at once.
    let bytes = unsafe { std::slice::from_raw_parts(descriptor.cast::<u8>(), size as usize) };
    Ok(bytes.to_vec())
}
