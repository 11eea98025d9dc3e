//! The parts of OR-Tools' `cp_model.proto` and `sat_parameters.proto` that
//! scramble uses, as prost messages. Field numbers are those of OR-Tools
//! 9.15 (checked against the descriptors shipped in the `ortools` wheel:
//! `ortools/sat/cp_model_pb2.py`, `ortools/sat/sat_parameters_pb2.py`).
//! `cp_model.proto` is proto3 (repeated scalars packed), `sat_parameters.proto`
//! is proto2 (every field optional).

/// `operations_research.sat.CpModelProto`.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct CpModelProto {
    #[prost(string, tag = "1")]
    pub name: String,
    #[prost(message, repeated, tag = "2")]
    pub variables: Vec<IntegerVariableProto>,
    #[prost(message, repeated, tag = "3")]
    pub constraints: Vec<ConstraintProto>,
}

/// `IntegerVariableProto`: the domain is a flat list of interval bounds.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct IntegerVariableProto {
    #[prost(string, tag = "1")]
    pub name: String,
    #[prost(int64, repeated, tag = "2")]
    pub domain: Vec<i64>,
}

/// `ConstraintProto`.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct ConstraintProto {
    #[prost(string, tag = "1")]
    pub name: String,
    #[prost(int32, repeated, tag = "2")]
    pub enforcement_literal: Vec<i32>,
    #[prost(oneof = "Constraint", tags = "3, 4, 12, 13, 16, 29")]
    pub constraint: Option<Constraint>,
}

/// The `constraint` oneof of `ConstraintProto` (the members scramble uses).
#[derive(Clone, PartialEq, prost::Oneof)]
pub(crate) enum Constraint {
    #[prost(message, tag = "3")]
    BoolOr(BoolArgumentProto),
    #[prost(message, tag = "4")]
    BoolAnd(BoolArgumentProto),
    #[prost(message, tag = "12")]
    Linear(LinearConstraintProto),
    #[prost(message, tag = "13")]
    AllDiff(AllDifferentConstraintProto),
    #[prost(message, tag = "16")]
    Table(TableConstraintProto),
    #[prost(message, tag = "29")]
    ExactlyOne(BoolArgumentProto),
}

/// `BoolArgumentProto`.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct BoolArgumentProto {
    #[prost(int32, repeated, tag = "1")]
    pub literals: Vec<i32>,
}

/// `LinearExpressionProto`: sum(coeffs[k] * vars[k]) + offset.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct LinearExpressionProto {
    #[prost(int32, repeated, tag = "1")]
    pub vars: Vec<i32>,
    #[prost(int64, repeated, tag = "2")]
    pub coeffs: Vec<i64>,
    #[prost(int64, tag = "3")]
    pub offset: i64,
}

/// `LinearConstraintProto`: sum(coeffs[k] * vars[k]) in domain.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct LinearConstraintProto {
    #[prost(int32, repeated, tag = "1")]
    pub vars: Vec<i32>,
    #[prost(int64, repeated, tag = "2")]
    pub coeffs: Vec<i64>,
    #[prost(int64, repeated, tag = "3")]
    pub domain: Vec<i64>,
}

/// `AllDifferentConstraintProto`.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct AllDifferentConstraintProto {
    #[prost(message, repeated, tag = "1")]
    pub exprs: Vec<LinearExpressionProto>,
}

/// `TableConstraintProto`: `values` holds the tuples flattened.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct TableConstraintProto {
    #[prost(int64, repeated, tag = "2")]
    pub values: Vec<i64>,
    #[prost(bool, tag = "3")]
    pub negated: bool,
    #[prost(message, repeated, tag = "4")]
    pub exprs: Vec<LinearExpressionProto>,
}

/// `CpSolverStatus`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, prost::Enumeration)]
#[repr(i32)]
pub(crate) enum CpSolverStatus {
    Unknown = 0,
    ModelInvalid = 1,
    Feasible = 2,
    Infeasible = 3,
    Optimal = 4,
}

/// `CpSolverSolution`.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct CpSolverSolution {
    #[prost(int64, repeated, tag = "1")]
    pub values: Vec<i64>,
}

/// `CpSolverResponse` (the fields scramble reads).
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct CpSolverResponse {
    #[prost(enumeration = "CpSolverStatus", tag = "1")]
    pub status: i32,
    #[prost(int64, repeated, tag = "2")]
    pub solution: Vec<i64>,
    /// The search model's Booleans and integers (after presolve; 0 when
    /// the solve stopped before its search).
    #[prost(int64, tag = "10")]
    pub num_booleans: i64,
    #[prost(int64, tag = "11")]
    pub num_conflicts: i64,
    #[prost(int64, tag = "12")]
    pub num_branches: i64,
    #[prost(int64, tag = "30")]
    pub num_integers: i64,
    #[prost(double, tag = "15")]
    pub wall_time: f64,
    #[prost(double, tag = "16")]
    pub user_time: f64,
    #[prost(double, tag = "17")]
    pub deterministic_time: f64,
    #[prost(string, tag = "20")]
    pub solution_info: String,
    #[prost(string, tag = "26")]
    pub solve_log: String,
    #[prost(message, repeated, tag = "27")]
    pub additional_solutions: Vec<CpSolverSolution>,
}

/// `SatParameters` (proto2: every field optional).
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct SatParameters {
    #[prost(int32, optional, tag = "31")]
    pub random_seed: Option<i32>,
    #[prost(double, optional, tag = "57")]
    pub presolve_probing_deterministic_time_limit: Option<f64>,
    /// 0 = AUTOMATIC_SEARCH, 1 = FIXED_SEARCH.
    #[prost(int32, optional, tag = "82")]
    pub search_branching: Option<i32>,
    #[prost(bool, optional, tag = "86")]
    pub cp_model_presolve: Option<bool>,
    #[prost(int32, optional, tag = "90")]
    pub linearization_level: Option<i32>,
    #[prost(int32, optional, tag = "110")]
    pub cp_model_probing_level: Option<i32>,
    #[prost(int32, optional, tag = "183")]
    pub symmetry_level: Option<i32>,
    #[prost(int32, optional, tag = "138")]
    pub max_presolve_iterations: Option<i32>,
    #[prost(double, optional, tag = "146")]
    pub merge_at_most_one_work_limit: Option<f64>,
    #[prost(double, optional, tag = "226")]
    pub probing_deterministic_time_limit: Option<f64>,
    #[prost(double, optional, tag = "274")]
    pub inprocessing_probing_dtime: Option<f64>,
    #[prost(bool, optional, tag = "163")]
    pub use_sat_inprocessing: Option<bool>,
    #[prost(double, optional, tag = "36")]
    pub max_time_in_seconds: Option<f64>,
    #[prost(double, optional, tag = "67")]
    pub max_deterministic_time: Option<f64>,
    #[prost(bool, optional, tag = "41")]
    pub log_search_progress: Option<bool>,
    #[prost(bool, optional, tag = "135")]
    pub catch_sigint_signal: Option<bool>,
    #[prost(bool, optional, tag = "87")]
    pub enumerate_all_solutions: Option<bool>,
    #[prost(bool, optional, tag = "192")]
    pub fix_variables_to_their_hinted_value: Option<bool>,
    #[prost(bool, optional, tag = "173")]
    pub keep_all_feasible_solutions_in_presolve: Option<bool>,
    #[prost(bool, optional, tag = "186")]
    pub log_to_stdout: Option<bool>,
    #[prost(bool, optional, tag = "187")]
    pub log_to_response: Option<bool>,
    #[prost(int32, optional, tag = "193")]
    pub solution_pool_size: Option<i32>,
    #[prost(bool, optional, tag = "194")]
    pub fill_additional_solutions_in_response: Option<bool>,
    #[prost(int32, optional, tag = "206")]
    pub num_workers: Option<i32>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost::Message;

    #[test]
    fn field_numbers_are_on_the_wire() {
        // Tag bytes: (field << 3) | wire type.
        let p = SatParameters {
            enumerate_all_solutions: Some(true),
            ..Default::default()
        };
        // 87 << 3 | 0 = 696 = varint [0xb8, 0x05].
        assert_eq!(p.encode_to_vec(), vec![0xb8, 0x05, 0x01]);
        let v = IntegerVariableProto {
            name: "x".into(),
            domain: vec![0, 3],
        };
        // name: tag 1 LEN; domain: tag 2 LEN (packed).
        assert_eq!(v.encode_to_vec(), vec![0x0a, 1, b'x', 0x12, 2, 0, 3]);
        let c = ConstraintProto {
            constraint: Some(Constraint::Table(TableConstraintProto::default())),
            ..Default::default()
        };
        // 16 << 3 | 2 = 130 = varint [0x82, 0x01], empty message.
        assert_eq!(c.encode_to_vec(), vec![0x82, 0x01, 0x00]);
    }
}

/// `CpObjectiveProto`: minimize `sum(coeffs * vars) + offset`.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct CpObjectiveProto {
    #[prost(int32, repeated, tag = "1")]
    pub vars: Vec<i32>,
    #[prost(double, tag = "2")]
    pub offset: f64,
    #[prost(int64, repeated, tag = "4")]
    pub coeffs: Vec<i64>,
}

/// `PartialVariableAssignment`: a solution hint.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct PartialVariableAssignment {
    #[prost(int32, repeated, tag = "1")]
    pub vars: Vec<i32>,
    #[prost(int64, repeated, tag = "2")]
    pub values: Vec<i64>,
}

/// The `objective` and `solution_hint` fields of `CpModelProto`, encoded on
/// their own to follow a model's bytes (a message field met twice merges).
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct ObjectiveAndHint {
    #[prost(message, optional, tag = "4")]
    pub objective: Option<CpObjectiveProto>,
    #[prost(message, optional, tag = "6")]
    pub solution_hint: Option<PartialVariableAssignment>,
}
