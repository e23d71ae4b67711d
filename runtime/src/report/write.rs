//! Where JSON reports go, and writing them.

use std::path::{Path, PathBuf};

use super::Report;
use agent_test_core::util::dirs::{ReportDir, report_root_of};

/// `<root>/<module path>/<scenario>.json`, with names reduced to safe characters.
fn report_path(root: &Path, report: &Report) -> PathBuf {
    let mut path = root.to_owned();
    if let Some(module) = &report.scenario.module {
        for seg in module.split("::").filter(|s| !s.is_empty()) {
            path.push(agent_test_core::util::dirs::safe_file_name(seg));
        }
    }
    path.push(format!(
        "{}.json",
        agent_test_core::util::dirs::safe_file_name(&report.scenario.name)
    ));
    path
}

/// Writes the report as JSON; a failure to write is noted in the report, never fatal.
pub(crate) fn write_json(report: &mut Report, dir: Option<&ReportDir>) {
    let path = report_path(&report_root_of(dir), report);
    let result = serde_json::to_value(&*report)
        .and_then(|mut v| {
            agent_test_core::util::shared_strings::share_repeats(&mut v);
            serde_json::to_vec_pretty(&v)
        })
        .map_err(|e| e.to_string())
        // Whole or not at all: tests in other processes (nextest) and CI steps read them.
        .and_then(|bytes| agent_test_core::util::dirs::write_whole(&path, &bytes));
    match result {
        Ok(()) => report.json_path = Some(path),
        Err(e) => report.notes.push(format!(
            "could not write the JSON report to {}: {e}",
            path.display()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agent_test_core::model::ScenarioInfo;

    #[test]
    fn path_from_module_and_name() {
        let r = Report::new(
            ScenarioInfo::new("refund flow").located("booking::tests", "x.rs", 1),
            vec![],
            Default::default(),
            0,
        );
        assert_eq!(
            report_path(Path::new("/r"), &r),
            Path::new("/r/booking/tests/refund_flow.json")
        );
        assert_eq!(agent_test_core::util::dirs::safe_file_name(".."), "_");
    }
}
