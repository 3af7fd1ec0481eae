//! Credit balances per key, persisted in `credits.json`. Keys are stored as a hash, not in clear.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

use super::store::{fnv, Dirs};

pub struct Credits {
    start: i64,
    path: PathBuf,
    dirs: Dirs,
    balances: Mutex<HashMap<String, i64>>,
}

/// Keys never reach the disk: balances are filed under a hash of the key.
fn slot(key: &str) -> String {
    format!("{:016x}", fnv(&[b"credits", key.as_bytes()]))
}

impl Credits {
    pub fn load(dirs: &Dirs, start: i64) -> std::io::Result<Credits> {
        let path = dirs.credits_file();
        let balances = dirs.read_json(&path)?.unwrap_or_default();
        Ok(Credits {
            start,
            path,
            dirs: dirs.clone(),
            balances: Mutex::new(balances),
        })
    }

    fn save(&self, balances: &HashMap<String, i64>) -> std::io::Result<()> {
        self.dirs.write_json(&self.path, balances)
    }

    pub fn balance(&self, key: &str) -> i64 {
        let b = self.balances.lock().unwrap_or_else(|e| e.into_inner());
        b.get(&slot(key)).copied().unwrap_or(self.start)
    }

    /// Takes `cost` credits; `Ok(false)` when the balance is too low (nothing is taken).
    pub fn charge(&self, key: &str, cost: i64) -> std::io::Result<bool> {
        let mut b = self.balances.lock().unwrap_or_else(|e| e.into_inner());
        let bal = b.entry(slot(key)).or_insert(self.start);
        if *bal < cost {
            return Ok(false);
        }
        *bal -= cost;
        if cost != 0 {
            self.save(&b)?;
        }
        Ok(true)
    }

    /// Gives back credits of a charge whose task could not be recorded.
    pub fn refund(&self, key: &str, cost: i64) {
        let mut b = self.balances.lock().unwrap_or_else(|e| e.into_inner());
        *b.entry(slot(key)).or_insert(self.start) += cost;
        let _ = self.save(&b);
    }

    pub fn set(&self, key: &str, credits: i64) -> std::io::Result<()> {
        let mut b = self.balances.lock().unwrap_or_else(|e| e.into_inner());
        b.insert(slot(key), credits);
        self.save(&b)
    }
}
