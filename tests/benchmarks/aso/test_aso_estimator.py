"""ASO as a scikit-learn multi-task learner: the modified Huber solver, the shared structure Theta,
ASO against independent learners with and without shared structure, and sklearn conformance."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import check_grad
from sklearn.linear_model import LogisticRegression
from sklearn.utils.estimator_checks import parametrize_with_checks

from benchmarks.mteval.aso.estimator import ASOClassifier, auxiliary_weights, learn_structure, structure_from
from benchmarks.mteval.aso.solver import Objective, fit_problems, modified_huber


def multitask(seed: int, shared: bool, p: int = 80, h: int = 3, m: int = 10, n_aux: int = 200,
              n_train: int = 20, n_test: int = 2000):
    """m auxiliary problems with many examples and one target with few (n_train in p dimensions).
    ``shared``: every weight vector lies in one random h-dimensional subspace B of the p features;
    otherwise all weights are independent Gaussian vectors (no structure to find)."""
    rng = np.random.default_rng(seed)
    basis = np.linalg.qr(rng.normal(size=(p, h)))[0].T

    def weight():
        return basis.T @ rng.normal(size=h) if shared else rng.normal(size=p)

    X_aux = rng.normal(size=(n_aux, p))
    Y_aux = np.column_stack([np.sign(X_aux @ weight()) for _ in range(m)])
    u = weight()
    X = rng.normal(size=(n_train + n_test, p))
    y = (X @ u > 0).astype(int)
    return basis, X_aux, Y_aux, (X[:n_train], y[:n_train]), (X[n_train:], y[n_train:])


#: lambda of the synthetic tests: 100x the paper's 1e-4 makes the Newton solves ~10x faster here
#: and changes no comparison (the same seeds with 1e-4 give gains of 0.24-0.30 and -0.08..+0.02)
ALPHA = 1e-2


def test_modified_huber_pieces_and_continuity():
    loss, slope = modified_huber(np.array([-3.0, -1.0, 0.0, 0.5, 1.0, 2.0]))
    assert loss.tolist() == [12.0, 4.0, 1.0, 0.25, 0.0, 0.0]
    assert slope.tolist() == [-4.0, -4.0, -2.0, -1.0, 0.0, 0.0]


def test_solver_gradient_and_unpenalised_columns():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 4))
    Y = np.sign(rng.normal(size=(30, 2)))
    Y[:10, 1] = 0  # rows 0-9 are not examples of problem 1
    strong = fit_problems(X, Y, alpha=10.0)
    free = fit_problems(X, Y, alpha=10.0, penalised=np.array([True, True, True, False]))
    assert np.abs(strong.coef).max() < 0.05  # a heavy penalty shrinks everything...
    assert np.abs(free.coef[3]).min() > 5 * np.abs(strong.coef[3]).max()  # ...except the freed feature
    function = Objective(X, Y, alpha=0.3, penalised=np.array([True, False, True, True]))
    point, direction = np.random.default_rng(1).normal(size=(2, 10))
    def value(w: np.ndarray) -> float:
        return function(w)[0]

    def gradient(w: np.ndarray) -> np.ndarray:
        return function(w)[1]

    assert check_grad(value, gradient, point) < 1e-5
    # H v against a finite difference of gradients (no margin sits on a kink at this point)
    step = 1e-6
    numeric = (function(point + step * direction)[1] - function(point - step * direction)[1]) / (2 * step)
    assert np.allclose(function.hessp(point, direction), numeric, atol=1e-6)


def test_solver_rejects_bad_labels_and_empty_problems():
    X = np.eye(3)
    with pytest.raises(ValueError, match="labels must be"):
        fit_problems(X, np.array([[2.0], [1.0], [-1.0]]), 1e-4)
    with pytest.raises(ValueError, match="problem 1 has no examples"):
        fit_problems(X, np.array([[1.0, 0.0], [-1.0, 0.0], [1.0, 0.0]]), 1e-4)


def test_structure_recovers_the_shared_subspace():
    basis, X_aux, Y_aux, _, _ = multitask(seed=5, shared=True)
    for rounds in (1, 2):
        theta, singular = learn_structure(X_aux, Y_aux, n_components=3, alpha=ALPHA, n_iter=rounds)
        assert np.allclose(theta @ theta.T, np.eye(3), atol=1e-8)  # orthonormal rows
        assert np.all(np.diff(singular) <= 1e-12)
        # share of Theta inside the true subspace (1 = identical subspaces)
        assert np.linalg.norm(basis @ theta.T) ** 2 / 3 > 0.8


def test_aso_beats_independent_learners_with_shared_structure():
    gains = []
    for seed in range(3):
        _, X_aux, Y_aux, (X, y), (Xt, yt) = multitask(seed, shared=True)
        linear = ASOClassifier(n_components=0, alpha=ALPHA).fit(X, y).score(Xt, yt)
        maxent = LogisticRegression().fit(X, y).score(Xt, yt)
        aso = ASOClassifier(n_components=3, alpha=ALPHA).fit(X, y, auxiliary_X=X_aux, auxiliary_Y=Y_aux).score(Xt, yt)
        # 2,000 test examples: a standard error of about 0.011 per accuracy
        assert aso - max(linear, maxent) > 0.15, (seed, aso, linear, maxent)
        gains.append(aso - linear)
    assert np.mean(gains) > 0.2


def test_aso_roughly_equal_without_shared_structure():
    differences = []
    for seed in range(4):
        _, X_aux, Y_aux, (X, y), (Xt, yt) = multitask(seed, shared=False)
        linear = ASOClassifier(n_components=0, alpha=ALPHA).fit(X, y).score(Xt, yt)
        aso = ASOClassifier(n_components=3, alpha=ALPHA).fit(X, y, auxiliary_X=X_aux, auxiliary_Y=Y_aux).score(Xt, yt)
        differences.append(aso - linear)
    assert min(differences) > -0.12
    assert abs(np.mean(differences)) < 0.05


def test_target_problems_as_auxiliary_and_plain_linear():
    rng = np.random.default_rng(1)
    X = sp.random(120, 40, density=0.2, random_state=1, format="csr")
    y = rng.choice(["ARG0", "ARG1", "ARGM-TMP"], size=120)
    aso = ASOClassifier().fit(X, y)
    assert aso.n_auxiliary_ == 3 and aso.n_components_ == 3 and aso.theta_.shape == (3, 40)
    assert aso.decision_function(X).shape == (120, 3)
    assert set(aso.predict(X)) <= set(aso.classes_)
    plain = ASOClassifier(n_components=0).fit(X, y)
    labels = np.where(y[:, None] == plain.classes_[None, :], 1.0, -1.0)
    assert np.allclose(plain.coef_, fit_problems(X, labels, 1e-4).coef.T)
    assert plain.n_components_ == 0 and not np.allclose(plain.coef_, aso.coef_)
    with pytest.raises(ValueError, match="auxiliary_X"):
        ASOClassifier().fit(X, y, auxiliary_Y=np.ones((5, 1)))
    with pytest.raises(ValueError, match="n_components"):
        ASOClassifier(n_components=-1).fit(X, y)
    assert ASOClassifier(target_auxiliary=False).fit(X, y).n_components_ == 0


@parametrize_with_checks([ASOClassifier()])
def test_sklearn_conformance(estimator, check):
    check(estimator)


def test_target_fit_penalises_only_u_outside_theta():
    """Eq. (5) with v unpenalised is Ando & Zhang's objective in u alone: min over v of
    |u - Theta^T v|^2 = |(I - Theta^T Theta) u|^2, so the fitted u = w + Theta^T v must be a
    stationary point of (1/n) sum L(u . x + b) + lambda |(I - Theta^T Theta) u|^2."""
    basis, X_aux, Y_aux, (X, y), _ = multitask(seed=2, shared=True)
    theta, _ = learn_structure(X_aux, Y_aux, n_components=3, alpha=ALPHA, tol=1e-12)
    model = ASOClassifier(n_components=3, alpha=ALPHA, tol=1e-12, target_auxiliary=False)
    model.fit(X, y, auxiliary_X=X_aux, auxiliary_Y=Y_aux)
    assert np.allclose(model.theta_, theta)
    u, b = model.coef_[0], model.intercept_[0]
    labels = np.where(y == 1, 1.0, -1.0)
    _, slope = modified_huber((X @ u + b) * labels)
    outside = np.eye(X.shape[1]) - theta.T @ theta
    gradient = X.T @ (slope * labels) / len(y) + 2 * ALPHA * outside @ u
    assert np.abs(gradient).max() < 1e-6
    assert abs((slope * labels).sum()) < 1e-6  # the unpenalised intercept


def test_u_of_stacked_problem_sets_is_the_stack_of_their_u():
    _, X_aux, Y_aux, (X, y), _ = multitask(seed=3, shared=True)
    Y = np.where(y == 1, 1.0, -1.0)[:, None]
    rows = np.vstack([X, X_aux])
    labels = np.zeros((len(rows), 1 + Y_aux.shape[1]))
    labels[:len(X), :1], labels[len(X):, 1:] = Y, Y_aux
    joint = auxiliary_weights(rows, labels, ALPHA, tol=1e-12)
    apart = np.hstack([auxiliary_weights(X, Y, ALPHA, tol=1e-12), auxiliary_weights(X_aux, Y_aux, ALPHA, tol=1e-12)])
    assert np.allclose(joint, apart, atol=1e-6)
    theta, singular = structure_from(apart, 2)
    assert theta.shape == (2, X.shape[1]) and np.allclose(theta @ theta.T, np.eye(2))
    assert len(singular) == apart.shape[1] and singular[0] >= singular[-1]


def test_h_chosen_by_inner_cross_validation():
    _, X_aux, Y_aux, (X, y), (Xt, yt) = multitask(seed=1, shared=True, n_train=60)
    groups = np.repeat(np.arange(12), 5)  # 12 "documents" of 5 examples
    model = ASOClassifier(n_components="cv", h_grid=(1, 3, None), cv=3, alpha=ALPHA)
    model.fit(X, y, groups=groups, auxiliary_X=X_aux, auxiliary_Y=Y_aux)
    assert set(model.cv_scores_) == {1, 3, 11}  # None = all m + 1 auxiliary problems (target included)
    assert model.n_components_ == max(model.cv_scores_, key=lambda h: (model.cv_scores_[h], -h))
    # h = all frees noise directions too (11 > the 3 true dimensions): worst inside, so not chosen
    assert model.cv_scores_[11] < min(model.cv_scores_[1], model.cv_scores_[3]) and model.n_components_ == 3
    assert model.score(Xt, yt) > ASOClassifier(n_components=0, alpha=ALPHA).fit(X, y).score(Xt, yt) + 0.1
    # one group: no inner split possible, so the paper's h = all, flagged by empty inner scores
    lone = ASOClassifier(n_components="cv", alpha=ALPHA).fit(X, y, groups=np.zeros(60))
    assert lone.cv_scores_ == {} and lone.n_components_ == 1
    with pytest.raises(ValueError, match="groups has 3 entries"):
        ASOClassifier(n_components="cv").fit(X, y, groups=[0, 1, 2])


@pytest.mark.parametrize("h", [0, 3])
def test_lambda_chosen_by_inner_cross_validation(h):
    from sklearn.model_selection import GroupKFold

    from benchmarks.mteval.aso.estimator import INNER_TOL

    _, X_aux, Y_aux, (X, y), _ = multitask(seed=2, shared=True, n_train=60)
    groups = np.repeat(np.arange(12), 5)
    grid = (1e-3, 1e-1, 10.0)
    model = ASOClassifier(n_components=h, alpha="cv", alpha_grid=grid, cv=3)
    model.fit(X, y, groups=groups, auxiliary_X=X_aux, auxiliary_Y=Y_aux)
    # the same inner folds by hand: each lambda's fits on the inner training documents only
    expected = {}
    for alpha in grid:
        correct = 0
        for train, held in GroupKFold(n_splits=3).split(X, groups=groups):
            inner = ASOClassifier(n_components=h, alpha=alpha, tol=INNER_TOL)
            inner.fit(X[train], y[train], auxiliary_X=X_aux, auxiliary_Y=Y_aux)
            correct += (inner.predict(X[held]) == y[held]).sum()
        expected[alpha] = correct / len(y)
    assert model.alpha_cv_scores_ == pytest.approx(expected)
    assert model.alpha_ == max(grid, key=lambda a: (expected[a], a))
    assert len(set(expected.values())) > 1  # the grid matters on this data: a choice is made
    final = ASOClassifier(n_components=h, alpha=model.alpha_).fit(X, y, auxiliary_X=X_aux, auxiliary_Y=Y_aux)
    assert np.allclose(model.coef_, final.coef_) and model.n_components_ == h


def test_lambda_selection_edge_cases():
    _, _, _, (X, y), _ = multitask(seed=2, shared=True, n_train=30)
    lone = ASOClassifier(n_components=0, alpha="cv", alpha_grid=(1e-1, 1e-3)).fit(X, y, groups=np.zeros(30))
    assert lone.alpha_cv_scores_ == {} and lone.alpha_ == 1e-1  # no inner split: the grid's first, flagged
    assert ASOClassifier(alpha=1e-2).fit(X, y).alpha_ == 1e-2
    with pytest.raises(ValueError, match="not both"):
        ASOClassifier(n_components="cv", alpha="cv").fit(X, y)
    with pytest.raises(ValueError, match="alpha must be a positive number"):
        ASOClassifier(alpha=0.0).fit(X, y)
    with pytest.raises(ValueError, match="alpha_grid must hold positive numbers"):
        ASOClassifier(alpha="cv", alpha_grid=(1e-2, 0.0)).fit(X, y)


def test_fit_and_predict_run_blas_on_one_thread(monkeypatch):
    """A threaded BLAS sums in an order that follows the core count, which flipped near-tied
    arguments between machines: the SVD and every product of ASO run on one BLAS thread."""
    from threadpoolctl import threadpool_info, threadpool_limits

    import benchmarks.mteval.aso.estimator as estimator

    seen = []
    real_svd = np.linalg.svd

    def svd(*args, **kwargs):
        seen.append({pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"})
        return real_svd(*args, **kwargs)

    monkeypatch.setattr(estimator.np.linalg, "svd", svd)
    _, X_aux, Y_aux, (X, y), (X_test, _) = multitask(0, shared=True, n_test=10)
    with threadpool_limits(limits=2, user_api="blas"):
        model = ASOClassifier(n_components=3, alpha=ALPHA).fit(X, y, auxiliary_X=X_aux, auxiliary_Y=Y_aux)
        model.predict(X_test)
    assert seen and all(threads == {1} for threads in seen)
