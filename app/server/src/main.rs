use anyhow::Context;
use lockstep_server::{build_state, router, serve, Config, ServerError};
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .init();
    let config = Config::from_env()?;
    let state = build_state(&config).await?;
    state.sessions.spawn_cleanup(std::time::Duration::from_secs(600));
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|source| ServerError::Bind { addr: config.addr, source })?;
    tracing::info!(
        "Lockstep is serving the course at http://{}",
        listener.local_addr().context("local address")?
    );
    serve(listener, router(state)).await?;
    Ok(())
}
