//! Panics caught by the tests that feed corrupt input to the decoder: their
//! messages kept out of the test output, and read back as text.

use std::sync::Once;

/// Silences panic messages from threads named `quiet-*` (their panics are
/// caught and reported by the test), leaving other threads' messages alone.
/// Installs the hook once per process.
pub fn quiet_panics_in_quiet_threads() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let quiet = std::thread::current()
                .name()
                .is_some_and(|n| n.starts_with("quiet-"));
            if !quiet {
                previous(info);
            }
        }));
    });
}

/// The message of a caught panic, or a placeholder for a non-string payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(non-string panic)".into())
}
