//! Writes a caller combines into one transaction: a quiz answer and the XP it earned, say, so
//! that neither is kept without the other.

use sqlx::{Any, AnyConnection, Transaction};

use crate::{Store, StoreError};

/// A transaction that writes, from [`Store::write`]. What it writes is seen by others, and by
/// this process's kept reads ([`Store::cached`]), once it commits; dropped without
/// [`commit`](Write::commit), it is rolled back and nothing is kept.
pub struct Write<'s> {
    store: &'s Store,
    tx: Transaction<'static, Any>,
    /// Learners whose kept reads these writes make stale: forgotten only once they commit,
    /// or a read begun in between could keep what the commit replaced.
    learners: Vec<String>,
}

impl Store {
    /// Opens a transaction for writes that belong together. On SQLite it holds the database's
    /// write lock until it commits or drops, so every other writer waits for it, the `Store`'s
    /// own write methods included: while it is open, write through it alone, and keep it short.
    pub async fn write(&self) -> Result<Write<'_>, StoreError> {
        Ok(Write { store: self, tx: self.begin_write().await?, learners: Vec::new() })
    }
}

impl Write<'_> {
    /// Commits every write made through it, then forgets the kept reads they changed.
    pub async fn commit(self) -> Result<(), StoreError> {
        self.tx.commit().await?;
        for learner in &self.learners {
            self.store.wrote_learner(learner).await;
        }
        Ok(())
    }

    pub(crate) fn conn(&mut self) -> &mut AnyConnection {
        &mut self.tx
    }

    /// After a write of the learner's events or quiz answers in this transaction.
    pub(crate) fn wrote_learner(&mut self, learner: &str) {
        if !self.learners.iter().any(|l| l == learner) {
            self.learners.push(learner.to_owned());
        }
    }
}
