// Type errors inside scenario bodies only show up when tests are compiled (trybuild compiles
// binaries), so this case uses the builder API the macro expands to.
use agent_test::prelude::*;

fn main() {
    let mut run = ScenarioRun::new(Suite::new(), "wrong_check");
    run.expect_turn(reply());
    run.expect(42);
}
