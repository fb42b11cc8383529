//! Collects every error of one derive, so the user sees them all in one compile.

use std::cell::RefCell;
use std::fmt::Display;

use quote::ToTokens;

/// Error collector; it panics if dropped without [`Ctxt::check`], so no error
/// can be silently lost (serde's `internals/ctxt.rs` does the same).
#[derive(Default)]
pub struct Ctxt {
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    pub fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    /// Records an error pointing at `tokens`.
    pub fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, message: M) {
        self.syn_error(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// Records a `syn` error as is.
    pub fn syn_error(&self, err: syn::Error) {
        if let Some(errors) = self.errors.borrow_mut().as_mut() {
            errors.push(err);
        }
    }

    /// Consumes the collector: `Err` with every error combined if there was any.
    pub fn check(self) -> syn::Result<()> {
        let errors = self.errors.borrow_mut().take().unwrap_or_default();
        let mut iter = errors.into_iter();
        let Some(mut combined) = iter.next() else {
            return Ok(());
        };
        for rest in iter {
            combined.combine(rest);
        }
        Err(combined)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        assert!(
            std::thread::panicking() || self.errors.borrow().is_none(),
            "forgot to check for errors"
        );
    }
}
