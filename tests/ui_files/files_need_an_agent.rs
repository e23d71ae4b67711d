use agent_test::prelude::*;

// A file whose cases carry no recorded run needs the agent under test.
agent_test_files!("../../../tests/ui_files/cases/good.json");
