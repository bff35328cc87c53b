"""CREMER (Lin et al. 2012, section 5): responsiveness as an SVR over TESLA-S and DICOMER: the metric,
its regressor (``model``) and its training (``train``)."""
